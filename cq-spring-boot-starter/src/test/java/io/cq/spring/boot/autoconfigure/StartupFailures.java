package io.cq.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;

import java.util.List;
import java.util.Objects;

/**
 * Runs the failure analyzers registered in {@code META-INF/spring.factories} (Boot's and the starter's) on a
 * start-up failure, as Spring Boot does before it reports one.
 */
final class StartupFailures {
    private StartupFailures() {
    }

    static FailureAnalysis analyze(Throwable failure) {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader
                .forDefaultResourceLocation(StartupFailures.class.getClassLoader())
                .load(FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.none(),
                        SpringFactoriesLoader.FailureHandler.handleMessage((message, error) -> {
                            // analyzers that need the application's bean factory or environment are not needed here
                        }));
        return analyzers.stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElseThrow(() -> new AssertionError("no failure analyzer explained " + failure, failure));
    }
}
