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

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

import org.redisson.RedissonShutdownException;

/**
 * The calls in flight on one Redis client, failed once the client has shut down under them. Redisson fails a call it
 * left unanswered at its shutdown only if it tracked the call, and it tracks no pipeline (a schedule that waits for
 * replicas, a consumer's fetch beside its acknowledgements) and no more than its last 100 calls: the others would never
 * complete, and their callers would wait for ever.
 * <p>
 * The client is known to be shut down when the component shut it down ({@link #failAll}), or when a call fails because
 * it is: the transfer task calls at least once per {@code transferInterval}, so a client an application shut down is
 * noticed too.
 */
final class CallsInFlight {

    private final Set<CompletableFuture<?>> calls = ConcurrentHashMap.newKeySet();
    private final BooleanSupplier shutDown;

    /** @param shutDown whether the client has shut down: no answer can come any more */
    CallsInFlight(BooleanSupplier shutDown) {
        this.shutDown = shutDown;
    }

    /** {@code reply}, which fails when the client shuts down before it completes. */
    <R> CompletionStage<R> watch(CompletionStage<R> reply) {
        CompletableFuture<R> answer = new CompletableFuture<>();
        calls.add(answer);
        answer.whenComplete((result, failure) -> calls.remove(answer));
        reply.whenComplete((result, failure) -> {
            if (failure == null) {
                answer.complete(result);
                return;
            }
            answer.completeExceptionally(failure);
            if (ClientShutDown.advice(failure) != null && shutDown.getAsBoolean()) {
                failAll();
            }
        });
        return answer;
    }

    /** Fails every call still in flight: the client has shut down. */
    void failAll() {
        for (CompletableFuture<?> call : calls) {
            call.completeExceptionally(new RedissonShutdownException(
                    "Redisson is shutdown: the Redis client shut down before Redis answered; the call may or may not "
                                                                     + "have been carried out"));
        }
    }
}
