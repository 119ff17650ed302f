/** Spring Boot auto-configuration of cq-spring-integration. */
package io.cq.integration.config;
