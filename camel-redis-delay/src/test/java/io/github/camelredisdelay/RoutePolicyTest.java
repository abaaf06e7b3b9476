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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.ShardTags;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ServiceStatus;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.throttling.ThrottlingInflightRoutePolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Route policies that pause the consumer from an exchange's own thread (Camel's throttling policies) suspend it: it
 * stops fetching at once and goes on when resumed, rather than being stopped, which would wait for the very exchange
 * that paused it.
 */
@CamelSide
class RoutePolicyTest extends RedisDelayTestSupport {

    private final Set<String> delivered = ConcurrentHashMap.newKeySet();

    @Test
    void anInflightThrottlingPolicyPausesTheConsumerWithoutStallingIt() throws Exception {
        ThrottlingInflightRoutePolicy throttle = new ThrottlingInflightRoutePolicy();
        throttle.setMaxInflightExchanges(1);
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?concurrentConsumers=4&maxMessagesPerPoll=1").routePolicy(throttle).delay(200)
                        .process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        // a consumer stopped by the policy would wait for its exchanges this long, on the exchange's own thread
        node.getShutdownStrategy().setTimeout(30);
        node.start();
        List<String> jobs = List.of("j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8", "j9");

        node.createProducerTemplate().sendBody("redis-delay:jobs?operation=scheduleBatch", jobs);

        // ten exchanges of 200 ms, one at a time at worst: about 2 s
        await().atMost(Duration.ofSeconds(15)).until(() -> delivered.size() == jobs.size());
    }

    @ParameterizedTest
    @ValueSource(strings = { "blocking", "polling" })
    void aMessageFinishedJustBeforeTheConsumerIsSuspendedIsAcknowledgedWhileItStaysSuspended(String consumerType)
            throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?pollInterval=100&consumerType=" + consumerType).routeId("jobs").process(e -> {
                    // as a throttling policy does from an exchange's own thread: the consumer is suspended at once
                    ServiceHelper.suspendService(e.getContext().getRoute("jobs").getConsumer());
                    delivered.add(e.getMessage().getBody(String.class));
                });
            }
        });

        node.createProducerTemplate().sendBody("redis-delay:jobs", "j0");

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("j0"));
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(ServiceHelper.isSuspended(node.getRoute("jobs").getConsumer())).as("still suspended").isTrue();
    }

    @Test
    void aBlockingConsumerSuspendedDuringAReadThatWaitsInRedisRoutesNothingItBringsUntilResumed() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("orders").process(e -> received.add(e.getMessage().getBody(String.class)
                                                                                       + " while " + consumerStatus(e)));
            }
        });
        var producer = node.createProducerTemplate();
        for (int round = 0; round < 3; round++) {
            // after a delivery the queue counts as busy: the consumer's next read waits in Redis (up to 250 ms)
            producer.sendBody("redis-delay:orders", "busy-" + round);
            String busy = "busy-" + round + " while Started";
            await().pollInterval(Duration.ofMillis(2)).atMost(Duration.ofSeconds(5)).until(() -> received.contains(busy));

            node.getRouteController().suspendRoute("orders");
            producer.sendBody("redis-delay:orders", "after-suspend-" + round);

            await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2))
                    .until(() -> received.stream().noneMatch(body -> body.startsWith("after-suspend-")));
            node.getRouteController().resumeRoute("orders");
            String resumed = "after-suspend-" + round + " while Started";
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains(resumed));
            received.clear();
        }
    }

    @Test
    void aShardedPollingConsumerSuspendedByAnExchangeRoutesNothingScheduledAfterTheSuspensionUntilResumed()
            throws Exception {
        String onShard0 = "m0";
        String onShard1 = "m1";
        for (int n = 0; ShardTags.shardOf(onShard0, 2) != 0; n++) {
            onShard0 = "a" + n;
        }
        for (int n = 0; ShardTags.shardOf(onShard1, 2) != 1; n++) {
            onShard1 = "b" + n;
        }
        String afterSuspendId = onShard1;
        List<String> received = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?consumerType=polling&shards=2&pollInterval=100").routeId("orders").process(e -> {
                    String body = e.getMessage().getBody(String.class);
                    received.add(body + " while " + consumerStatus(e));
                    if ("before-suspend".equals(body)) {
                        // as a throttling or circuit-breaker policy does from an exchange's own thread
                        ServiceHelper.suspendService(e.getContext().getRoute("orders").getConsumer());
                        // scheduled after the suspension, due now, on the queue's other shard
                        e.getContext().createProducerTemplate().sendBodyAndHeader("redis-delay:orders?shards=2",
                                "after-suspend", RedisDelayConstants.MESSAGE_ID, afterSuspendId);
                    }
                });
            }
        });

        node.createProducerTemplate().sendBodyAndHeader("redis-delay:orders?shards=2", "before-suspend",
                RedisDelayConstants.MESSAGE_ID, onShard0);

        await().atMost(Duration.ofSeconds(10)).until(() -> !received.isEmpty());
        // the consumer stays suspended: what was scheduled after the suspension waits for the resume
        await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(3)).until(() -> received.size() == 1);
        assertThat(received).containsExactly("before-suspend while Started");
        ServiceHelper.resumeService(node.getRoute("orders").getConsumer());
        await().atMost(Duration.ofSeconds(5)).until(() -> received.contains("after-suspend while Started"));
    }

    @Test
    void aMessageHandedBackBySuspendedConsumerIsPeekedAsReadyNotInFlightWithoutADelivery() throws Exception {
        List<String> received = new CopyOnWriteArrayList<>();
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("orders").process(e -> received.add(e.getMessage().getBody(String.class)));
            }
        });
        var producer = node.createProducerTemplate();
        List<String> peeks = new ArrayList<>();
        for (int round = 0; round < 5; round++) {
            // after a delivery the queue counts as busy: the consumer's next read waits in Redis (up to 250 ms)
            producer.sendBody("redis-delay:orders", "busy-" + round);
            String busy = "busy-" + round;
            await().pollInterval(Duration.ofMillis(2)).atMost(Duration.ofSeconds(5)).until(() -> received.contains(busy));

            node.getRouteController().suspendRoute("orders");
            String id = "after-suspend-" + round;
            producer.sendBodyAndHeader("redis-delay:orders", id, RedisDelayConstants.MESSAGE_ID, id);
            // the read under way (up to 250 ms), if it brought the message, hands it back rather than routing it
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(3)).until(() -> !received.contains(id));
            Exchange peeked = producer.request("redis-delay:orders?operation=peek",
                    e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id));
            peeks.add(id + " " + peeked.getMessage().getHeader(RedisDelayConstants.STATE) + " "
                      + peeked.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT));

            node.getRouteController().resumeRoute("orders");
            await().atMost(Duration.ofSeconds(5)).until(() -> received.contains(id));
        }
        // no consumer works on it while the only one is suspended: ready, not delivered yet
        assertThat(peeks).allMatch(peek -> peek.endsWith(" ready 0"));
    }

    private static ServiceStatus consumerStatus(Exchange exchange) {
        return ((StatefulService) exchange.getContext().getRoute("orders").getConsumer()).getStatus();
    }
}
