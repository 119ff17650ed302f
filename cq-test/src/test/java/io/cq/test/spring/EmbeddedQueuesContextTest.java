package io.cq.test.spring;

import io.cq.core.MappedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextManager;
import org.springframework.util.FileSystemUtils;

import java.io.IOException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Contexts as the TestContext framework loads and caches them for test classes (the nested classes below, which
 * have no tests of their own): one directory per context, shared where the context is, deleted when it closes.
 */
class EmbeddedQueuesContextTest {
    private static final String QUEUE = "cq.queues.audit.roll-cycle=daily";
    /** Keeps these contexts apart from those of other test classes with the same configuration. */
    private static final String APART = "spring.application.name=context-test";

    @SpringBootTest(classes = AuditApplication.class, properties = {QUEUE, APART})
    @EmbeddedQueues
    static class FirstTestClass {
    }

    @SpringBootTest(classes = AuditApplication.class, properties = {QUEUE, APART})
    @EmbeddedQueues
    static class SecondTestClassConfiguredAlike {
    }

    @SpringBootTest(classes = AuditApplication.class, properties = {QUEUE, APART})
    @EmbeddedQueues(keepDirectory = true)
    static class KeepingTestClass {
    }

    @SpringBootTest(classes = AuditApplication.class,
            properties = {QUEUE, APART, "cq.base-path=${app.archive}/nested"})
    @EmbeddedQueues(property = "app.archive")
    static class OwnPropertyTestClass {
    }

    @SpringBootTest(classes = AuditApplication.class, properties = {QUEUE, APART, "cq.base-path=target/never-used"})
    @EmbeddedQueues
    static class BasePathInPropertiesTestClass {
    }

    static class SubclassOfFirst extends FirstTestClass {
    }

    @Retention(RetentionPolicy.RUNTIME)
    @EmbeddedQueues(keepDirectory = true)
    @interface ComposedQueueTest {
    }

    @ComposedQueueTest
    static class ComposedTestClass {
    }

    @EmbeddedQueues(property = "app.archive")
    static class EnclosingTestClass {
        @Nested
        class NestedTestClass {
        }
    }

    private final List<TestContext> loaded = new ArrayList<>();
    /** Directories of contexts that keep theirs, deleted once the context is closed. */
    private final List<Path> kept = new ArrayList<>();

    private ApplicationContext context(Class<?> testClass) {
        TestContext testContext = new TestContextManager(testClass).getTestContext();
        loaded.add(testContext);
        return testContext.getApplicationContext();
    }

    private static Path basePath(ApplicationContext context) {
        return Path.of(context.getEnvironment().getRequiredProperty("cq.base-path"));
    }

    private static MappedQueue audit(ApplicationContext context) {
        return context.getBean("audit", MappedQueue.class);
    }

    @AfterEach
    void closeContexts() throws IOException {
        loaded.forEach(testContext -> testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE));
        for (Path directory : kept) {
            FileSystemUtils.deleteRecursively(directory);
        }
    }

    @Test
    void shouldShareOneDirectoryBetweenTestClassesThatShareTheirContext() {
        ApplicationContext first = context(FirstTestClass.class);

        assertThat(context(SecondTestClassConfiguredAlike.class)).isSameAs(first);
        assertThat(context(SubclassOfFirst.class)).isSameAs(first);
        assertThat(audit(first).path()).isEqualTo(basePath(first).resolve("audit"));
    }

    @Test
    void shouldGiveADifferentlyConfiguredContextADirectoryOfItsOwn() {
        ApplicationContext deleting = context(FirstTestClass.class);
        ApplicationContext keeping = context(KeepingTestClass.class);
        kept.add(basePath(keeping));

        assertThat(keeping).isNotSameAs(deleting);
        assertThat(basePath(keeping)).isNotEqualTo(basePath(deleting));
        assertThat(audit(keeping).path()).isEqualTo(basePath(keeping).resolve("audit"));
    }

    @Test
    void shouldDeleteTheDirectoryAfterTheContextClosedItsQueues() {
        TestContext testContext = new TestContextManager(FirstTestClass.class).getTestContext();
        ApplicationContext context = testContext.getApplicationContext();
        Path directory = basePath(context);
        MappedQueue audit = audit(context);
        audit.acquireAppender().writeText("written before the close");

        testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE);

        assertThat(audit.isClosed()).isTrue();
        assertThat(directory).doesNotExist();
    }

    @Test
    void shouldKeepTheDirectoryWhenAskedTo() {
        TestContext testContext = new TestContextManager(KeepingTestClass.class).getTestContext();
        Path directory = basePath(testContext.getApplicationContext());
        kept.add(directory);

        testContext.markApplicationContextDirty(DirtiesContext.HierarchyMode.EXHAUSTIVE);

        assertThat(directory.resolve("audit")).isDirectory();
    }

    @Test
    void shouldPointTheNamedPropertyAtTheDirectorySoOtherPathsCanFollowIt() {
        ApplicationContext context = context(OwnPropertyTestClass.class);
        Path archive = Path.of(context.getEnvironment().getRequiredProperty("app.archive"));

        assertThat(archive.getFileName().toString()).startsWith("cq-embedded-");
        assertThat(audit(context).path()).isEqualTo(archive.resolve("nested").resolve("audit"));
    }

    @Test
    void shouldWinOverABasePathSetInTheTestsProperties() {
        ApplicationContext context = context(BasePathInPropertiesTestClass.class);

        assertThat(basePath(context).getFileName().toString()).startsWith("cq-embedded-");
        assertThat(Path.of("target", "never-used")).doesNotExist();
    }

    @Test
    void shouldMakeEqualCustomizersForEqualAttributesOnlyWhereverTheAnnotationIsFound() {
        EmbeddedQueuesContextCustomizerFactory factory = new EmbeddedQueuesContextCustomizerFactory();

        var first = factory.createContextCustomizer(FirstTestClass.class, List.of());
        var alike = factory.createContextCustomizer(SecondTestClassConfiguredAlike.class, List.of());
        var keeping = factory.createContextCustomizer(KeepingTestClass.class, List.of());
        var ownProperty = factory.createContextCustomizer(OwnPropertyTestClass.class, List.of());

        assertThat(first).isEqualTo(alike).hasSameHashCodeAs(alike).isNotEqualTo(keeping).isNotEqualTo(ownProperty);
        assertThat(factory.createContextCustomizer(EmbeddedQueuesContextTest.class, List.of())).isNull();
        assertThat(factory.createContextCustomizer(ComposedTestClass.class, List.of())).isEqualTo(keeping);
        assertThat(factory.createContextCustomizer(EnclosingTestClass.NestedTestClass.class, List.of()))
                .isEqualTo(ownProperty);
    }
}
