package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.spring.support.InvalidQueuePropertyException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

import java.util.Map;

/**
 * Registers a {@link MappedQueue} bean per key of {@code cq.queues}, named after it. The bean is opened by the
 * {@link MappedQueueOpener} when the context creates its singletons, and closed when the context destroys them,
 * which is after every listener container (a lifecycle) has stopped. A {@code MappedQueue} bean the application
 * defines with the same name wins; a bean of another type with that name is refused at start-up, with a failure
 * analysis, where it used to hide the queue until something failed later.
 */
final class QueueBeanRegistrar implements ImportBeanDefinitionRegistrar {
    private final Environment environment;
    private final BeanFactory beanFactory;

    QueueBeanRegistrar(Environment environment, BeanFactory beanFactory) {
        this.environment = environment;
        this.beanFactory = beanFactory;
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        // Only the names are needed here; the values are bound (and checked) with CqProperties, which drops what it
        // does not know: a misspelt property is refused here instead.
        UnknownCqProperties.check(environment);
        Map<String, Object> queues = Binder.get(environment)
                .bind("cq.queues", Bindable.mapOf(String.class, Object.class))
                .orElse(Map.of());
        for (String name : queues.keySet()) {
            if (registry.containsBeanDefinition(name)) {
                requireQueueType(name, registry.getBeanDefinition(name));
                continue;
            }
            RootBeanDefinition definition = new RootBeanDefinition(MappedQueue.class);
            definition.setInstanceSupplier(() -> beanFactory.getBean(MappedQueueOpener.class).open(name));
            definition.setDestroyMethodName("close");
            registry.registerBeanDefinition(name, definition);
        }
    }

    /** Whether the bean is one of cq's auto-configurations' own, which the application cannot rename. */
    private static boolean isStarters(BeanDefinition definition) {
        String factory = definition.getFactoryBeanName();
        return factory != null && factory.matches("io\\.cq\\.spring\\..*AutoConfiguration(\\$.*)?");
    }

    /**
     * A bean of the queue's name must be a MappedQueue (the application's own), or of a type not known yet. The type
     * of a {@code @Bean} method is predicted from its return type, without creating anything.
     */
    private void requireQueueType(String name, BeanDefinition existing) {
        Class<?> type = existing.getResolvableType().resolve();
        if (type == null && existing.getFactoryMethodName() != null) {
            type = beanFactory.getType(name, false);
        }
        if (type == null && existing.getBeanClassName() != null && existing.getFactoryMethodName() == null) {
            try {
                type = Class.forName(existing.getBeanClassName(), false, QueueBeanRegistrar.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                return;
            }
        }
        if (type != null && type != Object.class && !MappedQueue.class.isAssignableFrom(type)) {
            String origin = existing.getResourceDescription() == null ? ""
                    : " (defined in " + existing.getResourceDescription() + ")";
            throw new InvalidQueuePropertyException("cq.queues." + name, name, "the application already has a bean "
                    + "named '" + name + "' of type " + type.getName() + origin + ", and the queue '" + name
                    + "' would be the MappedQueue bean of the same name: one would hide the other",
                    isStarters(existing)
                            ? "The name is taken by cq's own bean: rename the queue; cq.queues.<other-name>.path=<its "
                                    + "directory> keeps the same files."
                            : "Rename the bean (e.g. @Bean(\"" + name + "Service\") or @Component(\"" + name
                                    + "Service\")), or the queue: cq.queues.<other-name>.path=<its directory> keeps "
                                    + "the same files.", null);
        }
    }
}
