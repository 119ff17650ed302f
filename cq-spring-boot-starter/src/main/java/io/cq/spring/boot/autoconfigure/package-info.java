/**
 * Spring Boot auto-configuration for cq.
 */
package io.cq.spring.boot.autoconfigure;
