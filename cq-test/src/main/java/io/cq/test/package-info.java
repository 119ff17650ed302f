/**
 * Test support for code on cq-core: {@link io.cq.test.TempQueue}, a queue in a fresh directory per JUnit Jupiter
 * test, and {@link io.cq.test.QueueProbe}, which reads what a queue holds and waits for excerpts on Awaitility
 * without moving any named tailer. Spring tests add {@link io.cq.test.spring.EmbeddedQueues}. docs/testing.md
 * shows them at work.
 */
@NullMarked
package io.cq.test;

import org.jspecify.annotations.NullMarked;
