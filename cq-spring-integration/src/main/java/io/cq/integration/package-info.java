/**
 * Spring Integration channel adapters for cq.
 */
package io.cq.integration;
