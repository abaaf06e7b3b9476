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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Consumer;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.StatefulService;
import org.apache.camel.builder.RouteBuilder;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The component page: "Redrive while the dead-letter queue's consumers are stopped", and "A dead letter that a consumer
 * of the dead-letter queue is working on is left alone". Stopping the dead-letter queue's route as told hands the rest
 * of its fetched batch back (never routed, its delivery uncounted, peeked as {@code ready}): nobody works on those dead
 * letters, yet a redrive never moves them, neither all of them nor by id.
 */
class RedriveHandedBackDeadLettersTest extends RedisDelayTestSupport {

    private final List<String> deadRouted = new CopyOnWriteArrayList<>();
    private final List<String> redriven = new CopyOnWriteArrayList<>();
    private final AtomicBoolean shopUp = new AtomicBoolean();

    @Test
    void deadLettersHandedBackByTheStoppedDeadLetterRouteAreRedriven() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?maxDeliveries=1").routeId("jobs").process(e -> {
                    if (!shopUp.get()) {
                        throw new IllegalStateException("shop down");
                    }
                    redriven.add(e.getMessage().getBody(String.class));
                });
                // the dead-letter queue's route, started once the five are there; its first exchange outlasts the stop
                from("redis-delay:jobs.dead?maxMessagesPerPoll=5").routeId("dead").autoStartup(false).process(e -> {
                    deadRouted.add(e.getMessage().getBody(String.class));
                    Consumer consumer = e.getContext().getRoute("dead").getConsumer();
                    await().pollInterval(Duration.ofMillis(10)).atMost(Duration.ofSeconds(10))
                            .until(() -> ((StatefulService) consumer).isStopping()
                                    || ((StatefulService) consumer).isStopped());
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        for (int i = 1; i <= 5; i++) {
            producer.sendBodyAndHeader("redis-delay:jobs", "job-" + i, RedisDelayConstants.MESSAGE_ID, "job-" + i);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("jobs.dead", "ready")).size() == 5);

        node.getRouteController().startRoute("dead");
        await().atMost(Duration.ofSeconds(10)).until(() -> deadRouted.size() == 1);
        // the operator stops the dead-letter queue's consumer before redriving, as the component page says
        node.getRouteController().stopRoute("dead", 1, TimeUnit.SECONDS);
        String handedBack = List.of("job-1", "job-2", "job-3", "job-4", "job-5").stream()
                .filter(id -> !deadRouted.contains(id)).findFirst().orElseThrow();
        // the stop hands the rest of the batch back once the running exchange is cut off: Camel's shutdown task goes
        // on after stopRoute's timeout
        await().atMost(Duration.ofSeconds(10)).until(() -> "ready".equals(producer.request(
                "redis-delay:jobs.dead?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, handedBack)).getMessage()
                .getHeader(RedisDelayConstants.STATE)));

        shopUp.set(true);
        Object movedById = producer.request("redis-delay:jobs?operation=redrive",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, handedBack)).getMessage().getBody();
        Object movedAll = producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null);

        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(movedById).as("redrive by id of dead letter %s, which no consumer works on (peek: ready)", handedBack)
                .isEqualTo(1L);
        soft.assertThat((Long) movedAll).as("redrive of the three other dead letters the stopped route handed back")
                .isGreaterThanOrEqualTo(3L);
        soft.assertAll();
    }
}
