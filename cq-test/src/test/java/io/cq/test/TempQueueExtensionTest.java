package io.cq.test;

import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.platform.engine.TestExecutionResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@code @TempQueue} gives a test, and what it leaves behind: fixture classes run through the platform. */
class TempQueueExtensionTest {

    /** What one test of a fixture saw: its queue's directory and the texts the queue held. */
    record Seen(String test, Path directory, List<String> texts) {
    }

    static final List<Seen> SEEN = new CopyOnWriteArrayList<>();

    private static Map<String, TestExecutionResult> run(Class<?> fixture) {
        SEEN.clear();
        return FixtureRun.run(fixture);
    }

    private static void see(String test, MappedQueue queue) {
        SEEN.add(new Seen(test, queue.path(), QueueProbe.of(queue).texts()));
    }

    @FixtureRun.Fixture
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class TwoTestsAppending {
        @TempQueue
        MappedQueue queue;

        @Test
        @Order(1)
        void first() {
            queue.acquireAppender().writeText("first");
            see("first", queue);
        }

        @Test
        @Order(2)
        void second(@TempQueue MappedQueue parameter) {
            parameter.acquireAppender().writeText("second");
            see("second", parameter);
        }
    }

    @Test
    void shouldGiveEachTestAQueueOfItsOwnThatNoOtherTestSees() {
        Map<String, TestExecutionResult> results = run(TwoTestsAppending.class);

        assertThat(FixtureRun.failure(results, "first()")).isEmpty();
        assertThat(FixtureRun.failure(results, "second(MappedQueue)")).isEmpty();
        assertThat(SEEN).extracting(Seen::texts).containsExactly(List.of("first"), List.of("second"));
        assertThat(SEEN.get(0).directory()).isNotEqualTo(SEEN.get(1).directory());
        assertThat(SEEN.get(0).directory().getFileName()).hasToString("queue");
    }

    @Test
    void shouldDeleteEachTestsDirectoryAfterTheTest() {
        run(TwoTestsAppending.class);

        assertThat(SEEN).hasSize(2).allSatisfy(seen -> {
            assertThat(seen.directory()).doesNotExist();
            assertThat(seen.directory().getParent()).doesNotExist();
        });
    }

    @FixtureRun.Fixture
    static class FailingTest {
        @Test
        void fails(@TempQueue MappedQueue queue) {
            queue.acquireAppender().writeText("before the failure");
            see("fails", queue);
            throw new IllegalStateException("the test's own failure");
        }
    }

    @Test
    void shouldLeaveTheTestsOwnFailureWhenATestWithAQueueFails() {
        Map<String, TestExecutionResult> results = run(FailingTest.class);

        assertThat(FixtureRun.failure(results, "fails(MappedQueue)")).isEqualTo("the test's own failure");
    }

    @Test
    void shouldDeleteTheQueueOfAFailedTest() {
        run(FailingTest.class);

        assertThat(SEEN).singleElement().satisfies(seen -> assertThat(seen.directory().getParent()).doesNotExist());
    }

    @FixtureRun.Fixture
    static class OneNameOneQueue {
        @TempQueue(rollCycle = RollCycle.HOURLY)
        MappedQueue field;
        MappedQueue fromBeforeEach;

        @BeforeEach
        void remember(@TempQueue(rollCycle = RollCycle.HOURLY) MappedQueue queue) {
            fromBeforeEach = queue;
        }

        @Test
        void sameQueue(@TempQueue(rollCycle = RollCycle.HOURLY) MappedQueue parameter,
                       @TempQueue(name = "audit") MappedQueue audit) {
            assertThat(parameter).isSameAs(field).isSameAs(fromBeforeEach);
            assertThat(parameter.rollCycle()).isEqualTo(RollCycle.HOURLY);
            assertThat(audit).isNotSameAs(parameter);
            assertThat(audit.rollCycle()).isEqualTo(RollCycle.DAILY);
            assertThat(audit.path().getFileName()).hasToString("audit");
            parameter.acquireAppender().writeText("to queue");
            see("queue", parameter);
            see("audit", audit);
        }
    }

    @Test
    void shouldGiveOneQueuePerNameToTheFieldsAndParametersOfATest() {
        Map<String, TestExecutionResult> results = run(OneNameOneQueue.class);

        assertThat(FixtureRun.failure(results, "sameQueue(MappedQueue, MappedQueue)")).isEmpty();
        assertThat(SEEN).extracting(Seen::texts).containsExactly(List.of("to queue"), List.of());
    }

    @Test
    void shouldDeleteTheQueueOfEveryNameAfterTheTest() {
        run(OneNameOneQueue.class);

        assertThat(SEEN).allSatisfy(seen -> assertThat(seen.directory()).doesNotExist());
    }

    @FixtureRun.Fixture
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class OneInstanceForAllTests {
        @TempQueue
        private MappedQueue queue;

        @Test
        @Order(1)
        void first() {
            queue.acquireAppender().writeText("first");
            see("first", queue);
        }

        @Test
        @Order(2)
        void second() {
            see("second", queue);
        }
    }

    @Test
    void shouldGiveAFreshQueueToEachTestEvenWhenTheTestsShareAnInstance() {
        Map<String, TestExecutionResult> results = run(OneInstanceForAllTests.class);

        assertThat(FixtureRun.failure(results, "second()")).isEmpty();
        assertThat(SEEN).extracting(Seen::texts).containsExactly(List.of("first"), List.of());
    }

    @FixtureRun.Fixture
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    static class QueueForTheClass {
        @TempQueue(name = "shared")
        static MappedQueue shared;
        static MappedQueue fromBeforeAll;

        @BeforeAll
        static void remember(@TempQueue(name = "shared") MappedQueue queue) {
            fromBeforeAll = queue;
        }

        @Test
        @Order(1)
        void first(@TempQueue(name = "shared") MappedQueue queue) {
            assertThat(queue).isSameAs(shared).isSameAs(fromBeforeAll);
            shared.acquireAppender().writeText("first");
            see("first", shared);
        }

        @Test
        @Order(2)
        void second() {
            shared.acquireAppender().writeText("second");
            see("second", shared);
        }
    }

    @Test
    void shouldShareTheQueueOfAStaticFieldBetweenTheTestsOfItsClass() {
        Map<String, TestExecutionResult> results = run(QueueForTheClass.class);

        assertThat(FixtureRun.failure(results, "first(MappedQueue)")).isEmpty();
        assertThat(SEEN).extracting(Seen::texts).containsExactly(List.of("first"), List.of("first", "second"));
        assertThat(SEEN.get(0).directory()).isEqualTo(SEEN.get(1).directory());
    }

    @Test
    void shouldDeleteTheQueueOfAStaticFieldAfterTheTestsOfItsClass() {
        run(QueueForTheClass.class);

        assertThat(SEEN.get(0).directory()).doesNotExist();
    }

    @FixtureRun.Fixture
    static class Misdeclared {
        @Test
        void notAQueue(@TempQueue String queue) {
        }

        @Test
        void badName(@TempQueue(name = "../elsewhere") MappedQueue queue) {
        }

        @Test
        void twoRollCycles(@TempQueue MappedQueue daily, @TempQueue(rollCycle = RollCycle.HOURLY) MappedQueue hourly) {
        }
    }

    @Test
    void shouldFailAMisdeclaredQueueWithAMessageThatSaysWhatIsWrong() {
        Map<String, TestExecutionResult> results = run(Misdeclared.class);

        assertThat(FixtureRun.failure(results, "notAQueue(String)"))
                .contains("parameter 'queue' of notAQueue is a java.lang.String")
                .contains("@TempQueue goes on a io.cq.core.MappedQueue");
        assertThat(FixtureRun.failure(results, "badName(MappedQueue)"))
                .contains("name='../elsewhere' must be 1 to 64 letters");
        assertThat(FixtureRun.failure(results, "twoRollCycles(MappedQueue, MappedQueue)"))
                .contains("rollCycle=HOURLY").contains("declared with rollCycle=DAILY");
    }

    @Test
    void shouldLeaveNothingOpenForATestThatClosesItsQueueItself(@TempQueue MappedQueue queue) {
        queue.acquireAppender().writeText("kept on disk");
        Path directory = queue.path();
        queue.close();

        try (MappedQueue reopened = MappedQueue.builder(directory).build()) {
            assertThat(QueueProbe.of(reopened).texts()).containsExactly("kept on disk");
        }
        assertThat(Files.isDirectory(directory)).isTrue();
    }
}
