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
package io.github.camelredisdelay.faults.history;

/**
 * One delivery of a version as a consumer noted it.
 *
 * @param consumer    {@code A}, {@code B} (the test's nodes) or {@code jvm-<pid>} (the consumer JVM)
 * @param scheduledAt its {@code CamelRedisDelayScheduledAt}: when its version was scheduled
 * @param start       when the route started it, epoch ms
 * @param end         when the route finished it; for one the kill interrupted, the time of the kill
 * @param failed      whether the route failed it (an interrupted one counts as failed)
 * @param interrupted whether the consumer JVM was killed in its middle
 */
public record Delivery(String consumer, String id, String body, int count, Long scheduledFor, Long scheduledAt,
        long start, long end,
        boolean failed, String lastError, boolean interrupted) {
}
