package io.cq.test.spring;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;
import org.springframework.util.FileSystemUtils;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * Points one property at a new temporary directory for one application context, and deletes the directory after
 * the context's beans were destroyed. Equal customizers (same attributes) let the TestContext framework share one
 * cached context, and so one directory, between test classes.
 */
final class EmbeddedQueuesContextCustomizer implements ContextCustomizer {
    static final String PROPERTY_SOURCE_NAME = "cqEmbeddedQueues";
    /** Not a bean: the name under which the directory's deletion waits for the context to close. */
    static final String DELETION_NAME = "io.cq.test.spring.embeddedQueuesDirectoryDeletion";
    private static final Log LOG = LogFactory.getLog(EmbeddedQueues.class);

    private final String property;
    private final boolean keepDirectory;

    EmbeddedQueuesContextCustomizer(String property, boolean keepDirectory) {
        if (property.isBlank()) {
            throw new IllegalArgumentException("@EmbeddedQueues(property=\"" + property + "\"): name a property, "
                    + "e.g. cq.base-path");
        }
        this.property = property;
        this.keepDirectory = keepDirectory;
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration configuration) {
        if (!(context instanceof GenericApplicationContext generic)) {
            throw new IllegalStateException("@EmbeddedQueues deletes its directory after the context's beans, which "
                    + "needs a GenericApplicationContext (every TestContext loader makes one), not a "
                    + context.getClass().getName());
        }
        Path directory = createDirectory();
        context.getEnvironment().getPropertySources()
                .addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(property, directory.toString())));
        if (keepDirectory) {
            LOG.info("The queues of this test context (" + property + ") are kept in " + directory);
        } else {
            LOG.debug("The queues of this test context (" + property + ") live in " + directory);
            // Registered before the context has any bean, so destroyed after all of them: the queues are closed
            // (listeners stopped, positions committed) before their files go. A failed refresh destroys it too.
            generic.getDefaultListableBeanFactory().registerDisposableBean(DELETION_NAME, () -> delete(directory));
        }
    }

    private Path createDirectory() {
        try {
            return Files.createTempDirectory("cq-embedded-").toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException("@EmbeddedQueues cannot create a temporary directory for " + property, e);
        }
    }

    private static void delete(Path directory) {
        try {
            FileSystemUtils.deleteRecursively(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the test context's queue directory " + directory, e);
        }
    }

    @Override
    public boolean equals(@Nullable Object other) {
        return other instanceof EmbeddedQueuesContextCustomizer that && property.equals(that.property)
                && keepDirectory == that.keepDirectory;
    }

    @Override
    public int hashCode() {
        return Objects.hash(property, keepDirectory);
    }

    @Override
    public String toString() {
        return "@EmbeddedQueues(property=" + property + ", keepDirectory=" + keepDirectory + ")";
    }
}
