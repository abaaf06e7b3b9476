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

/**
 * A queue's messages by state, read atomically; see {@code stats.lua}.
 *
 * @param scheduled       waiting for their due time, including failed ones waiting for a retry
 * @param ready           due and not yet fetched by a consumer
 * @param inFlight        fetched and not yet acknowledged
 * @param oldestOverdueMs ms since the due time of the oldest due message no consumer works on (not yet fetched, handed
 *                        back unrouted, or held by a consumer that died or hangs, its lease expired), 0 if none
 * @param redisNow        Redis' time when counted, epoch ms
 */
public record QueueCounts(long scheduled, long ready, long inFlight, long oldestOverdueMs, long redisNow) {
}
