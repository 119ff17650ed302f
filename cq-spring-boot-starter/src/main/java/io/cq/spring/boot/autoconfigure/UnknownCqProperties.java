package io.cq.spring.boot.autoconfigure;

import io.cq.spring.boot.autoconfigure.CqProperties.ListenerProperties;
import io.cq.spring.support.InvalidQueuePropertyException;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses a property under {@code cq.queues.<name>}, {@code cq.listener} or {@code cq.console} that cq does not have,
 * naming the closest one. Spring binds what it knows and drops the rest, so a typo ({@code roll-cyle}) would
 * otherwise leave the queue with its default and no word of it. The prefix {@code cq} as a whole is not bound
 * strictly, because other parts of the starter ({@code cq.request-reply}) have their own properties under it; nor is
 * the process's environment.
 */
final class UnknownCqProperties {
    private static final ConfigurationPropertyName QUEUES = ConfigurationPropertyName.of("cq.queues");
    private static final ConfigurationPropertyName LISTENER = ConfigurationPropertyName.of("cq.listener");
    private static final ConfigurationPropertyName CONSOLE = ConfigurationPropertyName.of("cq.console");
    private static final Set<String> QUEUE_PROPERTIES = propertiesOf(QueueProperties.class, "");
    private static final Set<String> LISTENER_PROPERTIES = propertiesOf(ListenerProperties.class, "");
    private static final Set<String> CONSOLE_PROPERTIES = propertiesOf(ConsoleProperties.class, "");

    private static final String HIDDEN = "******";

    private UnknownCqProperties() {
    }

    /**
     * @throws InvalidQueuePropertyException for the first unknown property found, with the closest known one
     */
    static void check(Environment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable) || isEnvironment(source)) {
                continue;
            }
            iterable.stream().forEach(name -> check(name, source));
        }
    }

    /**
     * The process's environment is not checked: what sets it is often not the application (a Kubernetes Service named
     * {@code cq-listener} gives every pod {@code CQ_LISTENER_SERVICE_HOST}, read as {@code cq.listener.service.host}).
     */
    private static boolean isEnvironment(ConfigurationPropertySource source) {
        return source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
    }

    private static void check(ConfigurationPropertyName name, ConfigurationPropertySource source) {
        if (QUEUES.isAncestorOf(name) && name.getNumberOfElements() > 3) {
            String queue = name.getElement(2, Form.ORIGINAL);
            String property = rest(name, 3);
            if (!isKnown(property, QUEUE_PROPERTIES)) {
                throw unknown(name, source, property, QUEUE_PROPERTIES, "cq.queues." + queue + ".");
            }
        } else if (LISTENER.isAncestorOf(name)) {
            String property = rest(name, 2);
            if (!isKnown(property, LISTENER_PROPERTIES)) {
                throw unknown(name, source, property, LISTENER_PROPERTIES, "cq.listener.");
            }
        } else if (CONSOLE.isAncestorOf(name)) {
            String property = rest(name, 2);
            if (!isKnown(property, CONSOLE_PROPERTIES)) {
                throw unknown(name, source, property, CONSOLE_PROPERTIES, "cq.console.");
            }
        }
    }

    private static InvalidQueuePropertyException unknown(ConfigurationPropertyName name,
                                                         ConfigurationPropertySource source, String property,
                                                         Set<String> known, String prefix) {
        var value = source.getConfigurationProperty(name);
        String closest = closest(property, known);
        String action = closest == null
                ? "Remove it, or use one of the properties listed in docs/spring-boot.md: " + String.join(", ", known)
                        + "."
                : "Did you mean " + prefix + closest + "? Rename it, or remove it.";
        Object shown = value == null ? null : isSecret(property) ? HIDDEN : value.getValue();
        return new InvalidQueuePropertyException(name.toString(), shown,
                "cq has no such property" + (value == null || value.getOrigin() == null ? ""
                        : " (set in " + value.getOrigin() + ")") + ", so it would be ignored", action, null);
    }

    /**
     * A misspelt password must not be shown in the report, nor anything under {@code encryption}: what Spring Boot's
     * endpoints hide, and more.
     */
    private static boolean isSecret(String property) {
        String bare = bare(property).toLowerCase(Locale.ROOT);
        return bare.startsWith("encryption") || bare.contains("password") || bare.contains("secret")
                || bare.contains("token") || bare.contains("credential") || bare.endsWith("key");
    }

    /**
     * Compared without dashes and dots: an environment variable ({@code CQ_QUEUES_ORDERS_ROLL_CYCLE}) reaches the
     * binder as {@code roll.cycle}, which it binds to {@code roll-cycle}.
     */
    private static boolean isKnown(String property, Set<String> known) {
        String bare = bare(property);
        return known.stream().anyMatch(candidate -> bare(candidate).equals(bare));
    }

    private static String bare(String property) {
        return property.replace("-", "").replace(".", "");
    }

    private static String rest(ConfigurationPropertyName name, int from) {
        StringBuilder rest = new StringBuilder();
        for (int i = from; i < name.getNumberOfElements(); i++) {
            if (name.isNumericIndex(i)) {
                break;
            }
            rest.append(rest.isEmpty() ? "" : ".").append(name.getElement(i, Form.DASHED));
        }
        return rest.toString();
    }

    /** The known property at the smallest edit distance, if it is close enough to be a typo of it. */
    private static String closest(String property, Set<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(property, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= Math.max(2, property.length() / 4) ? best : null;
    }

    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /**
     * The dashed names of a properties class's setters, and of its nested groups (getters with no setter of a static
     * nested class of {@link CqProperties} or a properties class beside it), as the binder sees them.
     */
    private static Set<String> propertiesOf(Class<?> type, String prefix) {
        Set<String> names = new TreeSet<>();
        for (Method method : type.getMethods()) {
            if (Modifier.isStatic(method.getModifiers()) || method.getDeclaringClass() == Object.class) {
                continue;
            }
            String methodName = method.getName();
            if (methodName.startsWith("set") && method.getParameterCount() == 1) {
                names.add(prefix + dashed(methodName.substring(3)));
            } else if (methodName.startsWith("get") && method.getParameterCount() == 0
                    && isGroup(method.getReturnType())) {
                names.addAll(propertiesOf(method.getReturnType(), prefix + dashed(methodName.substring(3)) + "."));
            }
        }
        return names;
    }

    /** A nested group of properties: a class of the starter's own, nested in CqProperties or beside it. */
    private static boolean isGroup(Class<?> type) {
        return !type.isEnum() && (type.getEnclosingClass() == CqProperties.class
                || type.getPackage() == CqProperties.class.getPackage());
    }

    private static String dashed(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
