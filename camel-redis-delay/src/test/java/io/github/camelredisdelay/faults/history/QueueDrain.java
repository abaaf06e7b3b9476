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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.apache.camel.ProducerTemplate;
import org.awaitility.core.ConditionTimeoutException;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.awaitility.Awaitility.await;

/**
 * The end of a round: waits until the queue and its dead-letter queue hold nothing (no scheduled, ready or leased
 * message) for a while, then finds what should not be left: after a drain only the ready streams, empty, and the shard
 * records remain, and in a round Redis faults disturbed, the claims of redrives a fault cut short (the component page:
 * one a redrive that died left goes at a later redrive, once lapsed).
 */
public final class QueueDrain {

    /** How long both queues must stay empty: longer than any retry delay, so nothing is about to come back. */
    private static final Duration QUIET = Duration.ofMillis(1500);
    /** The most waits for the drain, each as long as the round's drain timeout. */
    private static final int MOST_WAITS = 4;
    /** A redrive's claim on a dead letter, or its turn: {@code <redrive's token> <expiry, epoch ms>}. */
    private static final Pattern REDRIVE_CLAIM = Pattern.compile("\\S+ \\d+");

    private final ProducerTemplate producer;
    private final HistoryQueue queue;

    public QueueDrain(ProducerTemplate producer, HistoryQueue queue) {
        this.producer = producer;
        this.queue = queue;
    }

    /**
     * Waits for the drain, {@code atMost} at a time, and again while the queues hold fewer messages than at the start
     * of the last wait (a round of slow routes on few consumer threads drains slowly, not never), at most
     * {@value #MOST_WAITS} waits; the violations if it does not come.
     */
    public List<String> awaitDrained(Duration atMost) {
        long left = left();
        for (int wait = 1;; wait++) {
            try {
                await("queues " + queue.name() + " and " + queue.deadLetterQueue() + " drained")
                        .atMost(atMost.plus(QUIET)).during(QUIET).pollInterval(Duration.ofMillis(250))
                        .until(() -> empty(queue.name()) && empty(queue.deadLetterQueue()));
                return List.of();
            } catch (ConditionTimeoutException e) {
                long stillLeft = left();
                if (wait == MOST_WAITS || stillLeft >= left) {
                    return List.of("not drained within " + atMost.multipliedBy(wait) + " (" + left + " messages left "
                                   + "before the last " + atMost + "): " + stats(queue.name()) + ", dead letters "
                                   + stats(queue.deadLetterQueue()) + " (the consumers may just be too slow for the "
                                   + "load; the other violations of this round may follow from it)");
                }
                left = stillLeft;
            }
        }
    }

    /** The messages both queues hold: scheduled, ready or in flight. */
    private long left() {
        return left(queue.name()) + left(queue.deadLetterQueue());
    }

    private long left(String name) {
        Map<?, ?> stats = stats(name);
        return ((Number) stats.get("scheduled")).longValue() + ((Number) stats.get("ready")).longValue()
               + ((Number) stats.get("inFlight")).longValue();
    }

    /**
     * The keys of both queues that a drain should have removed, and ready streams not emptied.
     *
     * @param faultsMet whether Redis faults disturbed the round: then the redrives' claims hash may be left, holding
     *                  claims only
     */
    public List<String> leftovers(RedissonClient redis, String keyPrefix, boolean faultsMet) {
        List<String> leftovers = new ArrayList<>();
        for (String key : redis.getKeys().getKeysByPattern(keyPrefix + ":{" + queue.name() + "[.#}]*")) {
            if (key.endsWith(":ready")) {
                long length = redis.getStream(key).size();
                if (length != 0) {
                    leftovers.add("ready stream " + key + " holds " + length + " entries after the drain");
                }
            } else if (key.endsWith(":redrive")) {
                Map<String, String> claims = redis.<String, String>getMap(key, StringCodec.INSTANCE).readAllMap();
                if (!faultsMet || !claims.values().stream().allMatch(claim -> REDRIVE_CLAIM.matcher(claim).matches())) {
                    leftovers.add("key left after the drain: " + key + " " + claims);
                } else {
                    System.out.println("[history] redrive claims left after the drain, of redrives a Redis fault cut short: "
                                       + key + " " + claims);
                }
            } else if (!key.endsWith(":shards")) {
                leftovers.add("key left after the drain: " + key + " " + (key.endsWith(":msg") || key.endsWith(":fail")
                        ? redis.getMap(key).readAllMap() : ""));
            }
        }
        return leftovers;
    }

    private boolean empty(String name) {
        return left(name) == 0;
    }

    private Map<?, ?> stats(String name) {
        return (Map<?, ?>) producer.requestBody(queue.statsUri(name), (Object) null);
    }
}
