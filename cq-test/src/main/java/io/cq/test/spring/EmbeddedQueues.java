package io.cq.test.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Gives each Spring test application context its own, fresh queue directory: {@code cq.base-path} (the starter's
 * property) points at a new temporary directory, deleted when the context closes, after its queues were closed.
 * Every queue of the context that does not set its own {@code path} lives under it, so a test starts with empty
 * queues and leaves nothing behind:
 *
 * <pre>{@code
 * @SpringBootTest
 * @EmbeddedQueues
 * class OrdersApplicationTest {
 *     @Autowired
 *     @Qualifier("orders")
 *     MappedQueue orders;
 *
 *     @Test
 *     void shouldAppendEachOrder() { ... QueueProbe.of(orders).awaitExcerpts(1) ... }
 * }
 * }</pre>
 *
 * <ul>
 *   <li><b>Context caching.</b> The directory belongs to the application context, not to the test class: test
 *       classes whose configuration is the same (this annotation's attributes included) share one cached context
 *       and so one directory, as they share its beans. A context with another configuration gets another
 *       directory. {@code @DirtiesContext} closes a context, and so deletes its directory; cached contexts are
 *       closed when the test JVM ends.</li>
 *   <li><b>Precedence.</b> The directory's property source comes first, before {@code application.yml} and the
 *       {@code properties} of {@code @SpringBootTest}.</li>
 *   <li><b>Queues with a path of their own.</b> A queue whose {@code cq.queues.<name>.path} is absolute stays where
 *       it says: that directory is the application's business, not this annotation's. Write the path as
 *       {@code ${cq.base-path}/<dir>} to have it follow the temporary directory.</li>
 *   <li><b>Applications that open queues themselves.</b> Name the property that holds their directory in
 *       {@link #property()}.</li>
 * </ul>
 *
 * <p>Works with any Spring TestContext test ({@code @SpringBootTest}, {@code @SpringJUnitConfig}...); it is found on
 * the test class, its superclasses, its enclosing classes for {@code @Nested} tests, and as a meta-annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface EmbeddedQueues {

    /** The property that is set to the temporary directory's absolute path. */
    String property() default "cq.base-path";

    /**
     * Leave the directory in place when the context closes (its path is logged at INFO when the context starts),
     * to look at the queues afterwards, e.g. with {@code cq dump}.
     */
    boolean keepDirectory() default false;
}
