package io.cq.integration;

import org.springframework.beans.factory.support.BeanDefinitionReaderUtils;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How cq's adapters are named when the application names none (docs/spring-integration.md, "Monitoring").
 *
 * <p>Spring generates a name for every component the application leaves unnamed, and marks it with
 * {@code #} and a counter: the Java DSL names an outbound adapter's endpoint
 * {@code orders.org.springframework.integration.config.ConsumerEndpointFactoryBean#0} and its handler
 * {@code orders.cq:outbound-channel-adapter#0} (flow {@code orders}, first cq writer of that kind in it). Such a
 * name is long and says nothing, so:
 *
 * <ul>
 *   <li>a <b>writer</b> (outbound adapter or gateway) without an id of its own is listed as
 *       {@code <flow>.<queue>-writer} ({@code -gateway} for gateways), the second and later ones of the same kind
 *       in one flow numbered {@code -2}, {@code -3}..., with framework package names taken out of a generated
 *       flow's name ({@code StandardIntegrationFlow#0.orders-writer} for a flow registered at run time without
 *       an id). Flow names are unique in a context and the numbers follow the flow's own order, so the id is
 *       unique and stays the same from one run to the next while the flow is unchanged;</li>
 *   <li>a <b>reader</b> (inbound adapter, message source, durable channel) must be named by the application,
 *       because its id names the named tailer whose position the queue keeps: a generated name is refused at
 *       start-up ({@link NamedTailers#requireValidName}).</li>
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class AdapterIds {
    /** What Spring puts between a generated name and its counter. */
    private static final String GENERATED_MARK = BeanDefinitionReaderUtils.GENERATED_BEAN_NAME_SEPARATOR;
    private static final Pattern FRAMEWORK_PACKAGES = Pattern.compile("org\\.springframework\\.(?:[a-z_$][\\w$]*\\.)*");

    private AdapterIds() {
    }

    /** Whether Spring generated {@code name} (or there is none): no application chose it. */
    public static boolean isGenerated(String name) {
        return name == null || name.isEmpty() || name.contains(GENERATED_MARK);
    }

    /**
     * The id of a writer whose application gave it none with {@code adapterId(...)}: its bean name if the
     * application chose it (a {@code @Bean}), else its endpoint's id if the application chose that
     * ({@code .handle(Cq.outboundAdapter(q), e -> e.id("journal"))}), else one derived from the flow, the queue
     * and the role, as the class comment says.
     *
     * @param beanName      the handler's bean name, null when it is no bean
     * @param endpointId    the id of the endpoint that calls it (its component name), null when none
     * @param componentType the handler's component type, which the DSL puts in the names it generates for it
     * @param queueName     the name of the queue it writes
     * @param role          {@code writer} or {@code gateway}
     */
    public static String writerId(String beanName, String endpointId, String componentType, String queueName,
                                  String role) {
        if (!isGenerated(beanName)) {
            return beanName;
        }
        if (!isGenerated(endpointId)) {
            return endpointId;
        }
        String base = queueName + "-" + role;
        if (beanName == null) {
            return base;
        }
        Matcher dsl = Pattern.compile("(?:(.+)\\.)?" + Pattern.quote(componentType) + GENERATED_MARK + "(\\d+)")
                .matcher(beanName);
        if (dsl.matches()) {
            String flow = dsl.group(1);
            String numbered = numbered(base, Long.parseLong(dsl.group(2)));
            return flow == null ? numbered : FRAMEWORK_PACKAGES.matcher(flow).replaceAll("") + "." + numbered;
        }
        // Generated some other way (a bean definition without a name): only Spring's counter tells them apart.
        String counter = beanName.substring(beanName.lastIndexOf(GENERATED_MARK) + 1);
        return counter.chars().allMatch(Character::isDigit) && !counter.isEmpty()
                ? numbered(base, Long.parseLong(counter)) : base;
    }

    /** Spring counts from 0; people call the second one "2". */
    private static String numbered(String base, long counter) {
        return counter == 0 ? base : base + "-" + (counter + 1);
    }
}
