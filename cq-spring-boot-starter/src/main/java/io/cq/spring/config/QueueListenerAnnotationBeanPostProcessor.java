package io.cq.spring.config;

import io.cq.core.MappedQueue;
import io.cq.core.StartPosition;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.ListenerEndpoint;
import io.cq.spring.listener.QueueListenerContainer;
import io.cq.spring.listener.invoke.BuiltInResolvers;
import io.cq.spring.listener.invoke.ListenerArgumentResolver;
import io.cq.spring.listener.invoke.ListenerInvoker;
import io.cq.spring.listener.invoke.ListenerMethodInvoker;
import io.cq.spring.listener.invoke.MethodDispatchInvoker;
import io.cq.spring.listener.invoke.ObservedListenerInvoker;
import io.cq.spring.listener.invoke.ReplyingListenerInvoker;
import io.cq.spring.support.InvalidQueuePropertyException;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

import java.lang.reflect.Method;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Finds {@link QueueListener} methods on each bean, resolves their attributes and registers a container for each
 * with the {@link ListenerContainerRegistry}. Collaborators are looked up when the first listener is found, so
 * that this post-processor, created early, does not create them early.
 */
public final class QueueListenerAnnotationBeanPostProcessor implements BeanPostProcessor, BeanFactoryAware {
    /** Bean name of the container factory used when {@link QueueListener#containerFactory()} is empty. */
    public static final String DEFAULT_CONTAINER_FACTORY = "queueListenerContainerFactory";

    private ConfigurableListableBeanFactory beanFactory;
    private List<ListenerArgumentResolver> resolvers;

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> type = AopUtils.getTargetClass(bean);
        Map<Method, QueueListener> methods = MethodIntrospector.selectMethods(type,
                (MethodIntrospector.MetadataLookup<QueueListener>) method ->
                        AnnotatedElementUtils.findMergedAnnotation(method, QueueListener.class));
        methods.forEach((method, annotation) -> register(bean, AopUtils.selectInvocableMethod(method, bean.getClass()),
                annotation));
        QueueListener onType = AnnotatedElementUtils.findMergedAnnotation(type, QueueListener.class);
        if (onType != null) {
            register(bean, type, onType);
        }
        return bean;
    }

    private void register(Object bean, Method method, QueueListener annotation) {
        String id = resolve(annotation.id());
        String where = "@QueueListener(id = \"" + id + "\") on " + method.getDeclaringClass().getSimpleName() + "."
                + method.getName();
        ListenerMethodInvoker invoker = new ListenerMethodInvoker(bean, method, resolvers());
        String sendTo = ListenerReplies.sendTo(method, this::resolve);
        if (method.getReturnType() == void.class) {
            if (sendTo != null) {
                throw new IllegalStateException(where + " has @SendTo(\"" + sendTo + "\") but returns nothing to send");
            }
            register(annotation, invoker, where);
            return;
        }
        if (sendTo != null) {
            ListenerReplies.requireWritableQueue(beanFactory, sendTo, where);
        }
        register(annotation, new ReplyingListenerInvoker(invoker, beanFactory.getBean(QueueTemplate.class), sendTo,
                id), where);
    }

    /** A class-level listener: each message is a call of the interface method it names (a method reader). */
    private void register(Object bean, Class<?> type, QueueListener annotation) {
        String where = "@QueueListener(id = \"" + resolve(annotation.id()) + "\") on " + type.getSimpleName();
        register(annotation, MethodDispatchInvoker.create(bean, type, annotation.interfaces(), where), where);
    }

    private void register(QueueListener annotation, ListenerInvoker invoker, String where) {
        String id = resolve(annotation.id());
        String queueName = resolve(annotation.queue());
        invoker = observed(invoker, queueName, id);
        ListenerEndpoint endpoint = new ListenerEndpoint(id, queueName, invoker, autoStartup(annotation, where),
                resolve(annotation.errorHandler()), resolve(annotation.idleStrategy()), annotation.startPosition(),
                startIndex(annotation, where), startTime(annotation, where));
        MappedQueue queue = queue(queueName, where);
        String factoryName = StringUtils.hasText(annotation.containerFactory()) ? resolve(annotation.containerFactory())
                : DEFAULT_CONTAINER_FACTORY;
        QueueListenerContainer container = beanFactory.getBean(factoryName, QueueListenerContainerFactory.class)
                .createContainer(endpoint, queue);
        beanFactory.getBean(ListenerContainerRegistry.class).register(container);
    }

    /** Each call in an observation when the application has an ObservationRegistry (Micrometer present). */
    private ListenerInvoker observed(ListenerInvoker invoker, String queueName, String id) {
        if (!OBSERVATION_PRESENT) {
            return invoker;
        }
        return Observations.wrap(beanFactory, invoker, queueName, id);
    }

    private static final boolean OBSERVATION_PRESENT = ClassUtils.isPresent(
            "io.micrometer.observation.ObservationRegistry",
            QueueListenerAnnotationBeanPostProcessor.class.getClassLoader());

    /** Holds the Micrometer references, so that the post-processor loads without Micrometer. */
    private static final class Observations {
        static ListenerInvoker wrap(ConfigurableListableBeanFactory beans, ListenerInvoker invoker, String queue,
                String id) {
            ObservationRegistry registry = beans.getBeanProvider(ObservationRegistry.class).getIfAvailable();
            return registry == null || registry.isNoop() ? invoker
                    : new ObservedListenerInvoker(invoker, registry, queue, id);
        }
    }

    private MappedQueue queue(String queueName, String where) {
        MappedQueue queue;
        try {
            queue = beanFactory.getBean(queueName, MappedQueue.class);
        } catch (NoSuchBeanDefinitionException e) {
            throw new InvalidQueuePropertyException("cq.queues." + queueName, "(missing)",
                    where + " reads queue '" + queueName + "', which is not configured",
                    "Configure the queue, e.g. cq.queues." + queueName + ".path=..., or correct the queue name.", e);
        }
        if (queue.isReadOnly()) {
            throw new InvalidQueuePropertyException("cq.queues." + queueName + ".read-only", true,
                    where + " needs a named tailer, which a read-only queue cannot keep",
                    "Set cq.queues." + queueName + ".read-only=false, or read the queue with an unnamed tailer.", null);
        }
        return queue;
    }

    private @Nullable Boolean autoStartup(QueueListener annotation, String where) {
        String value = resolve(annotation.autoStartup());
        if (value.isEmpty()) {
            return null;
        }
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false")) {
            throw new IllegalStateException(where + " has autoStartup = \"" + value + "\"; use \"true\" or \"false\"");
        }
        return Boolean.valueOf(value);
    }

    private long startIndex(QueueListener annotation, String where) {
        String value = resolve(annotation.startIndex());
        if (annotation.startPosition() != StartPosition.Kind.INDEX) {
            return -1;
        }
        try {
            long index = Long.decode(value);
            if (index >= 0) {
                return index;
            }
        } catch (NumberFormatException e) {
            // reported below with the listener's name
        }
        throw new IllegalStateException(where + " has startPosition = INDEX and startIndex = \"" + value
                + "\"; give an excerpt index, decimal or 0x-hex");
    }

    private @Nullable Instant startTime(QueueListener annotation, String where) {
        String value = resolve(annotation.startTime());
        if (annotation.startPosition() != StartPosition.Kind.TIME) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalStateException(where + " has startPosition = TIME and startTime = \"" + value
                    + "\"; give an ISO-8601 instant such as 2026-11-22T00:00:00Z", e);
        }
    }

    private String resolve(String value) {
        String resolved = beanFactory.resolveEmbeddedValue(value);
        return resolved == null ? "" : resolved;
    }

    private List<ListenerArgumentResolver> resolvers() {
        if (resolvers == null) {
            resolvers = new ArrayList<>(beanFactory.getBeanProvider(ListenerArgumentResolver.class).orderedStream()
                    .toList());
            resolvers.addAll(BuiltInResolvers.create());
        }
        return resolvers;
    }
}
