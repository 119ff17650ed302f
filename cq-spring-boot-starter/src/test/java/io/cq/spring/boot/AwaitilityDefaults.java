package io.cq.spring.boot;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;

/**
 * Awaitility's pace for every test of this module: a condition is checked at once and then every 10 ms, instead of
 * Awaitility's own first check after 100 ms and every 100 ms after it, so that a wait ends as soon as what it waits
 * for is true. What a wait proves is the same; an await that needs another pace sets it. Registered as a JUnit
 * extension for every test class (META-INF/services/org.junit.jupiter.api.extension.Extension, detection turned on
 * in junit-platform.properties).
 */
public final class AwaitilityDefaults implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(Duration.ofMillis(10));
    }
}
