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

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A redrive, of all, with a limit or by id, that cannot move a dead letter which a running consumer of the dead-letter
 * queue failed and scheduled again an hour ahead, as another queue sharing the dead-letter queue put it there, leaves
 * it for that retry: that consumer gets it when its retry is due, not at once.
 */
class RedriveBesideARunningDeadLetterConsumerTest extends RedisDelayTestSupport {

    /** The dead letters the consumer of all.dead was delivered, by body. */
    private final List<String> alerts = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @ValueSource(strings = { "all", "limit", "id" })
    void anotherQueuesDeadLetterARedriveLeavesIsNotDeliveredBeforeItsRetry(String redrive) throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                for (String queue : List.of("a", "b")) {
                    from("redis-delay:" + queue + "?deadLetterQueue=all.dead&maxDeliveries=1")
                            .throwException(new IllegalStateException("shop down"));
                }
                from("redis-delay:all.dead?retrySchedule=1h").process(e -> alerts.add(e.getMessage().getBody(String.class)))
                        .throwException(new IllegalStateException("alerting down"));
            }
        }).createProducerTemplate();
        // b's dead letter of j1, which the consumer of all.dead failed once and retries in an hour
        producer.sendBodyAndHeader("redis-delay:b", "b's j1", RedisDelayConstants.MESSAGE_ID, "j1");
        await().atMost(Duration.ofSeconds(10)).until(() -> alerts.size() == 1 && "scheduled".equals(
                producer.request("redis-delay:all.dead?operation=peek",
                        e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "j1")).getMessage()
                        .getHeader(RedisDelayConstants.STATE)));

        String uri = "redis-delay:a?deadLetterQueue=all.dead&operation=redrive";
        Object moved = switch (redrive) {
            case "limit" -> producer.requestBodyAndHeader(uri, null, RedisDelayConstants.REDRIVE_LIMIT, 1);
            case "id" -> producer.requestBodyAndHeader(uri, null, RedisDelayConstants.MESSAGE_ID, "j1");
            default -> producer.requestBody(uri, (Object) null);
        };

        assertThat(moved).isEqualTo(0L);
        await("b's dead letter delivered to the consumer of all.dead once, its retry an hour ahead")
                .during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> alerts.size() == 1);
        assertThat(CountedNow.queue(producer.getCamelContext(), "redis-delay:all.dead").scheduled()).isEqualTo(1L);
    }
}
