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
package io.github.camelredisdelay.internal;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MessageIdsTest {

    @Test
    void idsAreSixteenUrlSafeCharacters() {
        assertThat(IntStream.range(0, 100).mapToObj(i -> MessageIds.next()))
                .allMatch(id -> id.matches("[A-Za-z0-9_-]{16}"));
    }

    @Test
    void idsOfManyDrawsAndThreadsAreDistinct() throws InterruptedException {
        // more threads than generators, so that threads meet at one and wait for it
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<CompletableFuture<List<String>>> threads = IntStream.range(0, 16)
                    .mapToObj(t -> CompletableFuture.supplyAsync(
                            () -> IntStream.range(0, 10_000).mapToObj(i -> MessageIds.next()).toList(), pool))
                    .toList();

            Set<String> ids = threads.stream().flatMap(thread -> thread.join().stream()).collect(Collectors.toSet());

            assertThat(ids).hasSize(160_000);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void threadsThatEachTakeOneIdGetDistinctIds() throws InterruptedException {
        // as a virtual thread per request would: the generators outlive the threads
        Set<String> ids = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 2_000; i++) {
            Thread thread = new Thread(() -> ids.add(MessageIds.next()));
            thread.start();
            thread.join(10_000);
        }

        assertThat(ids).hasSize(2_000).allMatch(id -> id.matches("[A-Za-z0-9_-]{16}"));
    }
}
