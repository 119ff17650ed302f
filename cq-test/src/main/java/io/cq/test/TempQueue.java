package io.cq.test;

import io.cq.core.RollCycle;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link io.cq.core.MappedQueue} in a directory of its own, opened for the test and closed, with its directory
 * deleted, after it. Put it on a {@code MappedQueue} field or parameter of a JUnit Jupiter test:
 *
 * <pre>{@code
 * class BillingTest {
 *     @TempQueue
 *     MappedQueue orders;
 *
 *     @Test
 *     void shouldBillEveryOrder() {
 *         orders.acquireAppender().writeText("o-1");
 *         assertThat(QueueProbe.of(orders).texts()).containsExactly("o-1");
 *     }
 * }
 * }</pre>
 *
 * <ul>
 *   <li><b>One queue per test and name.</b> An instance field, and a parameter of a test method or of a
 *       {@code @BeforeEach} or {@code @AfterEach} method, get the test's queue of that {@link #name()}: the same
 *       queue everywhere in one test, a new one, in a new directory, for the next test. Two names are two queues.</li>
 *   <li><b>Wider scopes.</b> A static field, or a parameter of a {@code @BeforeAll} method, gets one queue for the
 *       whole test class (closed after its last test); the tests of that class then share it, and a test's own
 *       {@code @TempQueue} of the same name is that shared queue.</li>
 *   <li><b>Closing.</b> The queue is closed after the test's {@code @AfterEach} methods, which closes every appender
 *       and tailer it gave out, and its directory (a fresh one under {@code java.io.tmpdir}) is deleted. A test may
 *       close the queue itself, e.g. to reopen its {@link io.cq.core.MappedQueue#path()} as a restarted application
 * would.</li> </ul>
 *
 * <p>The queue has the builder's defaults except for the {@link #rollCycle()}; a test that needs other settings
 * opens its own queue with {@code MappedQueue.builder(dir)} in a JUnit {@code @TempDir}.
 */
@Target({ElementType.FIELD, ElementType.PARAMETER})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ExtendWith(TempQueueExtension.class)
public @interface TempQueue {

    /**
     * The queue's name: the last part of its directory, and what tells two queues of one test apart. Letters,
     * digits, '.', '_' and '-', starting with a letter or digit.
     */
    String name() default "queue";

    /** How the queue is cut into files; every declaration of one name must agree. */
    RollCycle rollCycle() default RollCycle.DAILY;
}
