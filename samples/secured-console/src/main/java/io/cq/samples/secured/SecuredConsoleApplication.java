package io.cq.samples.secured;

import io.cq.spring.annotation.QueueListener;
import jakarta.servlet.DispatcherType;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A service with the cq console behind Spring Security (docs/console.md, "Security"): the Actuator's endpoints, the
 * console among them, for the roles OPS and AUDITOR only; health for anyone; everything else for any signed-in user.
 * Sign-in with a form (browsers) or HTTP Basic (scripts); Spring Security's CSRF protection stays on, as by default.
 * The users are for the sample only: a real service gets them from its identity provider.
 */
@SpringBootApplication
public class SecuredConsoleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SecuredConsoleApplication.class, args);
    }

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        // Boot's error page renders what the chain refused (a 403 for a missing CSRF token) as it is,
                        // instead of asking for a sign-in again on the error dispatch (a 401)
                        .dispatcherTypeMatchers(DispatcherType.ERROR).permitAll()
                        .requestMatchers(EndpointRequest.to(HealthEndpoint.class)).permitAll()
                        // the queues endpoint and the console under /actuator/queues-console (ConsolePath)
                        .requestMatchers(EndpointRequest.toAnyEndpoint()).hasAnyRole("OPS", "AUDITOR")
                        .anyRequest().authenticated())
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults());
        return http.build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("ops").password("{noop}ops-secret").roles("OPS").build(),
                User.withUsername("auditor").password("{noop}auditor-secret").roles("AUDITOR").build(),
                User.withUsername("guest").password("{noop}guest-secret").roles("USER").build());
    }

    @Bean
    Billing billing() {
        return new Billing();
    }

    /** Bills the orders: the listener the console pauses, resumes and moves. */
    public static class Billing {
        public final List<String> billed = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "billing")
        void onOrder(String order) {
            billed.add(order);
        }
    }
}
