/*
 * Copyright The camel-redis-delay authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.PooledExchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.engine.PooledExchangeFactory;
import org.apache.camel.spi.InflightRepository;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An {@code Error} a route step throws (a poison message's {@code StackOverflowError}) escapes Camel's error handling,
 * so Camel never ends the exchange's unit of work: the consumer settles the message as failed, but the exchange stayed
 * counted in Camel's inflight repository, for the context and for each route it was in, for ever. A graceful stop then
 * waited its whole shutdown timeout for it, and inflight metrics showed a phantom exchange. Once the failure is
 * settled, nothing may be counted in flight, and the message must be settled once, as failed with the Error.
 */
@CamelSide
class ErrorLeftInFlightTest extends RedisDelayTestSupport {

    private static final String URI = "redis-delay:jobs?retrySchedule=1h&";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** Whether the route ran a pooled exchange. */
    private final AtomicBoolean routedPooled = new AtomicBoolean();

    private CamelContext contextThrowingAnError(String consumer, boolean viaInnerRoute, boolean pooled) throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:inner").routeId("inner").process(e -> {
                    routedPooled.set(e instanceof PooledExchange);
                    throw new StackOverflowError("poison");
                });
                if (viaInnerRoute) {
                    from(URI + consumer).routeId("jobs").to("direct:inner");
                } else {
                    from(URI + consumer).routeId("jobs").process(e -> {
                        throw new StackOverflowError("poison");
                    });
                }
            }
        });
        if (pooled) {
            context.getCamelContextExtension().setExchangeFactory(new PooledExchangeFactory());
        }
        context.getRegistry().bind("metricsRegistry", registry);
        context.start();
        context.createProducerTemplate().sendBodyAndHeader(URI + consumer, "job-1", RedisDelayConstants.MESSAGE_ID, "job-1");
        return context;
    }

    /** The message is scheduled for its retry an hour ahead, once, with the Error as its last error. */
    private void awaitFailureSettledOnce(CamelContext context, String consumer) {
        RedisDelayEndpoint endpoint = context.getEndpoint(URI + consumer, RedisDelayEndpoint.class);
        // the counter counts once Redis' reply is in, a moment after the message shows scheduled
        await("job-1 scheduled for its retry").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(endpoint.peekMessage("job-1").get("state")).isEqualTo("scheduled");
            assertThat(registry.get("camel.redis.delay.retried").tag("queue", "jobs").counter().count())
                    .as("retries scheduled").isEqualTo(1.0);
        });
        Map<String, Object> retry = endpoint.peekMessage("job-1");
        assertThat(retry.get("deliveryCount")).as("deliveries counted").isEqualTo(1);
        assertThat(retry.get("lastError")).asString().contains("StackOverflowError").contains("poison");
    }

    private static void awaitNothingInFlight(CamelContext context, String... routeIds) {
        InflightRepository inflight = context.getInflightRepository();
        await("no exchange counted in flight").atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(inflight.size()).as("exchanges in flight").isZero();
            for (String routeId : routeIds) {
                assertThat(inflight.size(routeId)).as("exchanges in flight in route " + routeId).isZero();
            }
        });
    }

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void anErrorThrownByTheRouteLeavesNoExchangeInFlight(String consumer) throws Exception {
        CamelContext context = contextThrowingAnError(consumer, false, false);

        awaitFailureSettledOnce(context, consumer);
        awaitNothingInFlight(context, "jobs");
    }

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void anErrorThrownByARouteTheRouteCallsLeavesNoExchangeInFlightInEither(String consumer) throws Exception {
        CamelContext context = contextThrowingAnError(consumer, true, false);

        awaitFailureSettledOnce(context, consumer);
        awaitNothingInFlight(context, "jobs", "inner");
    }

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void anErrorThrownByTheRouteLeavesNoPooledExchangeInFlight(String consumer) throws Exception {
        CamelContext context = contextThrowingAnError(consumer, true, true);

        awaitFailureSettledOnce(context, consumer);
        assertThat(routedPooled).as("the route ran a pooled exchange").isTrue();
        awaitNothingInFlight(context, "jobs", "inner");
    }

    /**
     * Camel's own after-steps of the exchange the {@code Error} failed were left queued on the consumer's thread, and
     * ran at the next delivery routed there, after the consumer had ended the exchange: the inflight counts of the
     * context and of each route went negative for good.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "asyncConsumer=false", "asyncConsumer=true&maxMessagesPerPoll=1", "consumerType=polling&pollInterval=100" })
    void theNextDeliveriesOnTheConsumersThreadLeaveTheInflightCountsAtZero(String consumer) throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:inner").routeId("inner").process(e -> {
                    if (delivered.incrementAndGet() == 1) {
                        throw new StackOverflowError("poison");
                    }
                });
                from("redis-delay:jobs?retrySchedule=50&" + consumer).routeId("jobs").to("direct:inner");
            }
        });
        context.start();
        context.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-1", RedisDelayConstants.MESSAGE_ID,
                "job-1");
        context.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job-2", RedisDelayConstants.MESSAGE_ID,
                "job-2");

        await("job-1 retried, job-2 delivered, both acknowledged").atMost(Duration.ofSeconds(10))
                .until(() -> delivered.get() >= 3 && redis().getMap(key("jobs", "msg")).isEmpty());
        InflightCounts.assertSettledAtZero(context, "jobs", "inner");
    }
}
