package io.cq.test.spring;

import org.jspecify.annotations.Nullable;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

import java.util.List;

/**
 * Finds {@link EmbeddedQueues} on a test class and makes its customizer. Registered in
 * {@code META-INF/spring.factories}, so the TestContext framework consults it for every test class and includes the
 * customizer in the context's cache key.
 */
final class EmbeddedQueuesContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
                                                               List<ContextConfigurationAttributes> configurations) {
        EmbeddedQueues embedded = TestContextAnnotationUtils.findMergedAnnotation(testClass, EmbeddedQueues.class);
        return embedded == null ? null
                : new EmbeddedQueuesContextCustomizer(embedded.property(), embedded.keepDirectory());
    }
}
