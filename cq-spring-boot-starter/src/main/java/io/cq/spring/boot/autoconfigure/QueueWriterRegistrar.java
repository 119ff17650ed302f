package io.cq.spring.boot.autoconfigure;

import io.cq.spring.annotation.QueueWriter;
import io.cq.spring.core.QueueWriterFactory;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

import java.beans.Introspector;
import java.util.List;

/**
 * Registers a bean for every {@link QueueWriter} interface in the application's packages
 * ({@link AutoConfigurationPackages}), named after the interface ({@code orderEvents} for {@code OrderEvents}).
 * A bean the application defines with that name wins. The writer is the primary bean of its interface, so that
 * injecting the interface gets it even though a class-level listener implements the interface too. What each bean
 * is, {@link QueueWriterFactory} makes; this class only finds the interfaces, which is Boot's part.
 */
final class QueueWriterRegistrar implements ImportBeanDefinitionRegistrar {
    private final Environment environment;
    private final BeanFactory beanFactory;
    private final QueueWriterFactory writers;

    QueueWriterRegistrar(Environment environment, BeanFactory beanFactory) {
        this.environment = environment;
        this.beanFactory = beanFactory;
        this.writers = new QueueWriterFactory(environment, beanFactory);
    }

    @Override
    public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
        if (!AutoConfigurationPackages.has(beanFactory)) {
            return;
        }
        List<String> packages = AutoConfigurationPackages.get(beanFactory);
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false,
                environment) {
            @Override
            protected boolean isCandidateComponent(AnnotatedBeanDefinition definition) {
                return definition.getMetadata().isInterface() && definition.getMetadata().isIndependent();
            }
        };
        scanner.addIncludeFilter(new AnnotationTypeFilter(QueueWriter.class, false, true));
        ClassLoader classLoader = beanFactory instanceof ConfigurableBeanFactory configurable
                ? configurable.getBeanClassLoader() : ClassUtils.getDefaultClassLoader();
        for (String basePackage : packages) {
            for (BeanDefinition candidate : scanner.findCandidateComponents(basePackage)) {
                Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), classLoader);
                String beanName = Introspector.decapitalize(type.getSimpleName());
                if (registry.containsBeanDefinition(beanName)) {
                    continue;
                }
                registry.registerBeanDefinition(beanName, definition(type));
            }
        }
    }

    private <T> RootBeanDefinition definition(Class<T> type) {
        RootBeanDefinition definition = new RootBeanDefinition(type);
        // Primary: the listener that receives these calls implements the same interface, and injecting the
        // interface means sending.
        definition.setPrimary(true);
        definition.setInstanceSupplier(() -> writers.create(type));
        return definition;
    }
}
