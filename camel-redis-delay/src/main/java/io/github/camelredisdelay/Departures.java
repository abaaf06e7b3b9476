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

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The departures (the last acknowledgements, then leaving the consumer group) that the consumers of a stopping
 * CamelContext send without waiting for Redis each: the component waits for all of them once, at most {@value #WAIT_MS}
 * ms, before it shuts its clients down. Consumers stop one after another, so a wait of a round trip each would make the
 * stop of a context one round trip per queue, seconds through a slow link.
 */
final class Departures {

    /** Longest wait for the departures under way, as a consumer stopped alone waits for leaving at most. */
    static final long WAIT_MS = 2000;

    private final Set<CompletableFuture<?>> underWay = ConcurrentHashMap.newKeySet();

    /** A stopping consumer sent its departure. */
    void add(CompletionStage<?> departure) {
        CompletableFuture<?> future = departure.toCompletableFuture();
        underWay.add(future);
        future.whenComplete((done, failure) -> underWay.remove(future));
    }

    /** Waits until the departures under way ended (failed ones too), at most {@value #WAIT_MS} ms. */
    void await() {
        try {
            CompletableFuture.allOf(underWay.toArray(CompletableFuture[]::new)).get(WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            // a failed departure is logged by its consumer; one Redis does not answer is not waited for longer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
