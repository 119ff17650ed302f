package io.cq.test;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * Runs a fixture test class through the JUnit Platform, as a build would, and tells how each of its tests ended: the
 * only way to see what an extension does between tests and after them.
 */
final class FixtureRun {
    private static final String ENABLED = "cq.test.fixture";

    private FixtureRun() {
    }

    /** The outcome of each test (and container) of the class that ran, by display name. */
    static Map<String, TestExecutionResult> run(Class<?> fixture) {
        Map<String, TestExecutionResult> results = new LinkedHashMap<>();
        TestExecutionListener recorder = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier test, TestExecutionResult result) {
                results.put(test.getDisplayName(), result);
            }
        };
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(fixture))
                .configurationParameter(ENABLED, "true")
                .forExecution().listeners(recorder).build());
        return results;
    }

    /** The failure message of a test that failed, or "" when it did not. */
    static String failure(Map<String, TestExecutionResult> results, String test) {
        TestExecutionResult result = results.get(test);
        if (result == null) {
            throw new AssertionError("no test or container named " + test + " ran: " + results.keySet());
        }
        return result.getThrowable().map(Throwable::getMessage).orElse("");
    }

    /** Marks a class that only {@link FixtureRun} runs: a build or an IDE running it directly skips it. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(OnlyInFixtureRun.class)
    @interface Fixture {
    }

    static final class OnlyInFixtureRun implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(ENABLED).isPresent()
                    ? ConditionEvaluationResult.enabled("run by FixtureRun")
                    : ConditionEvaluationResult.disabled("a fixture of a test of cq-test, run by FixtureRun only");
        }
    }
}
