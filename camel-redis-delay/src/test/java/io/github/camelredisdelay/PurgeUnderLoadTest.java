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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A purge removes every message the queue held when it started, however many producers schedule meanwhile (the
 * component page). Messages scheduled meanwhile with a shorter delay than those already there are due first: a purge
 * that took the earliest due messages for as many calls as the queue's size at its start needed ran out of calls on
 * them, and answered with the messages scheduled before it still there, to be delivered.
 */
class PurgeUnderLoadTest extends RedisDelayTestSupport {

    private static final int BATCH = 1000;
    private static final int MOST_BATCHES = 100;

    @Test
    void aPurgeRemovesEveryMessageScheduledBeforeItStartedWhileOthersAreScheduled() throws Exception {
        CamelContext context = startContext();
        ProducerTemplate producer = context.createProducerTemplate();
        List<String> elements = IntStream.range(0, BATCH).mapToObj(i -> "job " + i).toList();
        Set<String> before = new HashSet<>(
                producer.requestBody("redis-delay:jobs?operation=scheduleBatch&delay=1h", elements, List.class));
        assertThat(before).hasSize(BATCH);

        // two producers go on scheduling, due before the messages already there
        AtomicBoolean purged = new AtomicBoolean();
        List<CompletableFuture<Void>> flow = IntStream.range(0, 2).mapToObj(n -> CompletableFuture.runAsync(() -> {
            for (int batch = 0; batch < MOST_BATCHES && !purged.get(); batch++) {
                producer.requestBody("redis-delay:jobs?operation=scheduleBatch&delay=1m", elements);
            }
        })).toList();
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getMap(key("jobs", "msg")).size() > BATCH);

        producer.requestBodyAndHeader("redis-delay:jobs?operation=purge", null, RedisDelayConstants.CONFIRM, "jobs");
        purged.set(true);
        for (CompletableFuture<Void> producing : flow) {
            producing.get(30, TimeUnit.SECONDS);
        }

        Set<String> left = new HashSet<>(redis().<String, Object>getMap(key("jobs", "msg")).readAllKeySet());
        left.retainAll(before);
        assertThat(left.size()).as("messages scheduled before the purge, still there after it").isZero();
    }
}
