/**
 * The {@code redis-delay} Camel component: the public classes (component, endpoint, configuration, headers,
 * exceptions) and, package-private, everything that turns Camel exchanges into Redis calls and back: the producer,
 * the consumers and what they share to deliver and settle messages. Redis itself is reached only through
 * {@link io.github.camelredisdelay.internal}. See docs/architecture.md.
 */
package io.github.camelredisdelay;
