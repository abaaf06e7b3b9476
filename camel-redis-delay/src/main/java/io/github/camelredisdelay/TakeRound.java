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

import java.util.concurrent.TimeUnit;

/**
 * The time of one take of a receiver ({@link RedisDelayPollingConsumer}), {@code ms} from {@code startNanos} (up to
 * {@link Long#MAX_VALUE}: counted in ms, as nanoseconds would overflow).
 */
record TakeRound(long startNanos, long ms) {

    long elapsedMs() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    boolean over() {
        return elapsedMs() >= ms;
    }

    long leftMs() {
        return ms - elapsedMs();
    }
}
