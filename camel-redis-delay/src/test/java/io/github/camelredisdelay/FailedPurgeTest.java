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
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.DueSet;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A purge that fails part-way (here Redis refuses one of its calls; a lost connection or a failover between two of its
 * calls ends it the same way) is no purge under way: a message it never reached, scheduled before it, whose delivery
 * fails afterwards is retried and dead-lettered as any other, not removed as a purge under way would remove it.
 */
class FailedPurgeTest extends RedisDelayTestSupport {

    private final List<String> attempts = new CopyOnWriteArrayList<>();

    @Test
    void aMessageAFailedPurgeDidNotRemoveIsRetriedAndDeadLetteredWhenItFails() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?maxDeliveries=2&retrySchedule=100").routeId("jobs").autoStartup(false)
                        .process(e -> {
                            attempts.add(e.getMessage().getBody(String.class));
                            throw new IllegalStateException("shop down");
                        });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        long t0 = System.currentTimeMillis();
        // more than one purge call's chunk (500) first, then a message in a bucket of its own, then the one that fails
        IntStream.range(0, 600).forEach(i -> producer.sendBodyAndHeader("redis-delay:jobs", "bulk " + i,
                RedisDelayConstants.DUE_AT, t0 + 6_000));
        // a full bucket (64), so that the next due time starts a bucket of its own
        IntStream.range(0, 64).forEach(i -> producer.sendBodyAndHeader("redis-delay:jobs", "blocker " + i,
                RedisDelayConstants.DUE_AT, t0 + 6_500));
        producer.sendBodyAndHeader("redis-delay:jobs", "fails", RedisDelayConstants.DUE_AT, t0 + 7_000);
        DueSet dueSet = dueSet("jobs");
        DueSet.Bucket blocker = dueSet.buckets().stream().filter(b -> b.bound() == t0 + 6_500).findFirst().orElseThrow();
        // the purge's second call fails on this bucket
        redis().getBucket(dueSet.keyOf(blocker)).set("not a sorted set");

        Exchange purge = producer.request("redis-delay:jobs?operation=purge",
                e -> e.getMessage().setHeader(RedisDelayConstants.CONFIRM, "jobs"));
        assertThat(purge.getException()).as("the purge failed part-way").isNotNull();
        // the operator clears the fault; the purge is not asked again; consumers run
        redis().getKeys().delete(dueSet.keyOf(blocker));
        redis().getScoredSortedSet(key("jobs", "due")).remove(blocker.name());
        blocker.entries().keySet().forEach(id -> redis().getMap(key("jobs", "msg")).remove(id));
        node.getRouteController().startRoute("jobs");

        await().atMost(Duration.ofSeconds(30)).until(() -> !attempts.isEmpty());
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(redis().getStream(key("jobs.dead", "ready"))
                .size()).as("dead letters of jobs after %s failed deliveries of the message the purge did not reach",
                        attempts.size())
                .isEqualTo(1));
    }
}
