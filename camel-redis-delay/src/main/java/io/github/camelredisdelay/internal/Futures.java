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

import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

import org.redisson.client.RedisException;

/**
 * Waits for Redis replies as Redisson's synchronous calls do, and unwraps the failures of futures: the one place that
 * knows how a failure is wrapped on its way through {@code CompletableFuture}s.
 */
public final class Futures {

    private Futures() {
    }

    /**
     * The reply: its failure is thrown as it is, an interrupt as a {@link RedisException} with the interrupt flag kept.
     */
    public static <R> R await(CompletionStage<R> reply) {
        try {
            return reply.toCompletableFuture().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisException("Interrupted while waiting for Redis", e);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e.getCause());
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new RedisException("Redis call failed", cause);
        }
    }

    /** The failure behind any {@link CompletionException}s wrapped around it. */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
