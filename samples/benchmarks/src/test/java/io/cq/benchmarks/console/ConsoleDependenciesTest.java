package io.cq.benchmarks.console;

import org.junit.jupiter.api.Test;

import java.io.File;

import static org.assertj.core.api.Assertions.assertThat;

class ConsoleDependenciesTest {

    @Test
    void shouldDropTheJarsOnlyTheConsoleSectionNeedsAndKeepTheRest() {
        String classPath = String.join(File.pathSeparator, "/m2/io/cq/cq-core-0.1.0.jar", "target/classes",
                "/m2/micrometer-core-1.17.2.jar", "/m2/micrometer-observation-1.17.2.jar",
                "/m2/spring-boot-actuator-autoconfigure-4.1.2.jar", "/m2/spring-boot-4.1.2.jar",
                "/m2/tomcat-embed-core-11.0.27.jar", "/m2/spring-web-7.0.10.jar", "/m2/spring-webmvc-7.0.10.jar",
                "/m2/selenium-api-4.52.0.jar", "/m2/spring-boot-autoconfigure-4.1.2.jar");

        assertThat(ConsoleDependencies.without(classPath).split(File.pathSeparator)).containsExactly(
                "/m2/io/cq/cq-core-0.1.0.jar", "target/classes", "/m2/micrometer-observation-1.17.2.jar",
                "/m2/spring-boot-4.1.2.jar", "/m2/spring-boot-autoconfigure-4.1.2.jar");
    }
}
