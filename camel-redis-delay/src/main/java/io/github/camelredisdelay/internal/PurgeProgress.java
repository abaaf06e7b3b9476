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
 * How far the purge of a queue shard got, carried from one {@code purge.lua} call to the next: what it removed so far,
 * whether every message of its start is gone, and where the next call goes on (see the script's ARGV).
 *
 * @param removed  the messages removed so far
 * @param done     whether every message the shard held when the purge started is removed
 * @param dueFrom  the due time the walk of the due set goes on from
 * @param dueTo    the latest due time scheduled when the walk started
 * @param streamTo the last ready-stream entry the purge removes: of its start before the walk, of the instant the walk
 *                 was past {@code dueTo} after it
 */
public record PurgeProgress(long removed, boolean done, String dueFrom, String dueTo, String streamTo) {

    /** Before the first call. */
    public static final PurgeProgress START = new PurgeProgress(0, false, "", "", "");
}
