package io.cq.benchmarks.console;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The JARs that only the console section needs (Spring MVC with Tomcat, the Actuator with Micrometer, Selenium; see
 * the module's pom), so that the other sections' Spring Boot children run on the class path they had before the
 * console section: {@code ListenerHarness}'s listener would otherwise be wrapped in a Micrometer observation, as
 * the starter does when an {@code ObservationRegistry} exists, and measure something else than it always has.
 */
public final class ConsoleDependencies {
    /** File name prefixes of the JARs the console section's dependencies add to the module's class path. */
    static final List<String> PREFIXES = List.of("spring-boot-starter-webmvc-", "spring-boot-webmvc-",
            "spring-webmvc-", "spring-web-", "spring-boot-web-server-", "spring-boot-servlet-",
            "spring-boot-starter-tomcat", "spring-boot-tomcat-", "tomcat-embed-", "spring-boot-http-converter-",
            "spring-boot-starter-jackson-", "spring-boot-jackson-", "spring-boot-starter-actuator-",
            "spring-boot-actuator-", "spring-boot-health-", "spring-boot-starter-micrometer-",
            "spring-boot-micrometer-", "micrometer-core-", "micrometer-jakarta9-", "selenium-", "opentelemetry-");

    private ConsoleDependencies() {
    }

    /** {@code classPath} without the console section's JARs. */
    public static String without(String classPath) {
        return Arrays.stream(classPath.split(File.pathSeparator))
                .filter(entry -> {
                    String name = Path.of(entry).getFileName().toString();
                    return PREFIXES.stream().noneMatch(name::startsWith);
                })
                .collect(Collectors.joining(File.pathSeparator));
    }
}
