package io.github.camelredisdelay.internal;

/**
 * A queue's messages by state, read atomically; see {@code stats.lua}.
 *
 * @param scheduled       waiting for their due time, including failed ones waiting for a retry
 * @param ready           due and not yet fetched by a consumer
 * @param inFlight        fetched and not yet acknowledged
 * @param oldestOverdueMs ms since the due time of the oldest due message not yet fetched, 0 if none
 * @param redisNow        Redis' time when counted, epoch ms
 */
public record QueueCounts(long scheduled, long ready, long inFlight, long oldestOverdueMs, long redisNow) {
}
