package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueuesEndpoint;
import io.cq.spring.console.ConsoleApi;
import io.cq.spring.console.ConsoleCharts;
import io.cq.spring.console.ConsolePath;
import io.cq.spring.console.ConsoleRoutes;
import io.cq.spring.console.ConsoleSettings;
import io.cq.spring.console.MeterHistory;
import io.cq.spring.listener.DeadLetterErrorHandler;
import io.cq.spring.listener.ListenerErrorHandler;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointAccessResolver;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The web console (docs/console.md), with {@code cq.console.enabled=true} only: registered where the Actuator's
 * endpoints are (the application's context, or the management context of {@code management.server.port}), when the
 * {@code queues} endpoint is available over HTTP, and allowed to write exactly when that endpoint is.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnBooleanProperty("cq.console.enabled")
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(RouterFunction.class)
@ConditionalOnAvailableEndpoint(endpoint = QueuesEndpoint.class, exposure = EndpointExposure.WEB)
@EnableConfigurationProperties({ConsoleProperties.class, QueuesEndpointProperties.class})
public final class CqConsoleManagementContextConfiguration {
    /** The console's path under the Actuator's base path when cq.console.path is unset. */
    public static final String DEFAULT_PATH = "/queues-console";
    private static final Log log = LogFactory.getLog(CqConsoleManagementContextConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    ConsoleApi cqConsoleApi(Map<String, MappedQueue> queues, ObjectProvider<QueuesEndpoint> endpoint,
                            ObjectProvider<ConsoleCharts> charts, ObjectProvider<ListenerErrorHandler> errorHandlers,
                            ConsoleProperties properties, QueuesEndpointProperties endpointProperties,
                            WebEndpointProperties webEndpoints, EndpointAccessResolver access) {
        String path = properties.getPath() != null ? properties.getPath() : webEndpoints.getBasePath() + DEFAULT_PATH;
        boolean writable = access.accessFor(EndpointId.of("queues"), Access.READ_ONLY) == Access.UNRESTRICTED;
        Set<String> deadLetterQueues = errorHandlers.orderedStream()
                .filter(DeadLetterErrorHandler.class::isInstance)
                .map(handler -> ((DeadLetterErrorHandler) handler).deadLetterQueue()).collect(Collectors.toSet());
        ConsoleSettings settings = new ConsoleSettings(path, properties.getPageSize(), properties.getDisplayLimit(),
                properties.getRefreshInterval(), writable, deadLetterQueues, endpointProperties.getShowValues(),
                endpointProperties.getRoles());
        log.info("cq console at " + path + (writable ? " (pause, resume and seek allowed: "
                + "management.endpoint.queues.access=unrestricted)" : " (read-only, as the queues endpoint)"));
        return new ConsoleApi(queues, endpoint.getObject(), charts.getIfAvailable(() -> ConsoleCharts.NONE),
                settings);
    }

    @Bean
    RouterFunction<ServerResponse> cqConsoleRoutes(ConsoleApi api) {
        return ConsoleRoutes.routes(api);
    }

    /**
     * The console among the Actuator's paths when it is under the base path, for Spring Security's
     * {@code EndpointRequest} matchers (docs/console.md, "Security").
     */
    @Bean
    @ConditionalOnMissingBean
    ConsolePath cqConsolePath(ConsoleApi api, WebEndpointProperties webEndpoints) {
        return ConsolePath.of(webEndpoints.getBasePath(), api.settings().path());
    }

    /** The charts, from the meters the starter registers, when the application has Micrometer. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class ChartsConfiguration {
        @Bean
        @ConditionalOnMissingBean(ConsoleCharts.class)
        @ConditionalOnBean(MeterRegistry.class)
        MeterHistory cqConsoleMeterHistory(MeterRegistry registry, ConsoleProperties properties) {
            return new MeterHistory(registry, properties.getChartWindow());
        }
    }
}
