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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;

import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.ShardTags;
import org.awaitility.core.ConditionTimeoutException;
import org.redisson.api.RStream;
import org.redisson.api.RedissonClient;
import org.redisson.api.stream.StreamMessageId;
import org.redisson.client.RedisException;
import org.redisson.client.codec.StringCodec;

import static org.awaitility.Awaitility.await;

/**
 * The consumer JVM a round kills (or stops with SIGTERM), and the leases it held then: which versions (by body) its
 * consumers had fetched, started or not, read from the pending lists of the queue's ready streams right before and
 * right after the kill, and when each of those leases was first seen taken over by another consumer. The component
 * drops a superseded version at that take-over instead of delivering it, so the {@link ContractChecker} needs to know
 * both.
 */
public final class KilledConsumer {

    /** No consumer JVM was killed in the round. */
    static final KilledConsumer NONE = new KilledConsumer(null, List.of(), -1, false);

    private static final Duration TAKE_OVER_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration TAKE_OVER_POLL = Duration.ofMillis(50);
    /** Longer than the longest Redis fault of an outage round (a pause of 8.5 s, a restart). */
    private static final Duration REDIS_ANSWER_TIMEOUT = Duration.ofSeconds(30);
    private static final int MAX_PENDING_READ = 10_000;

    private final RedissonClient redis;
    private final List<String> readyStreams;
    private final long pid;
    /** Whether it is stopped with SIGTERM, its CamelContext stopping gracefully, rather than killed. */
    private final boolean graceful;
    /** Stream key and entry id of each lease it held, to the body of the version the entry carries. */
    private final Map<String, String> heldEntries = new ConcurrentHashMap<>();
    /** Body of each version it held, to when its lease was first seen gone from the killed consumer. */
    private final Map<String, Long> takenOverAt = new ConcurrentHashMap<>();
    private volatile long signalledAt;
    private volatile long killedAt;

    private KilledConsumer(RedissonClient redis, List<String> readyStreams, long pid, boolean graceful) {
        this.redis = redis;
        this.readyStreams = readyStreams;
        this.pid = pid;
        this.graceful = graceful;
    }

    /**
     * The consumer JVM with process id {@code pid} on the queue's shards, not killed yet.
     *
     * @param graceful whether it is to be stopped with SIGTERM rather than killed
     */
    public static KilledConsumer of(
            RedissonClient redis, String keyPrefix, HistoryQueue queue, long pid, boolean graceful) {
        List<String> streams = ShardTags.of(queue.name(), queue.shards()).stream()
                .map(tag -> QueueKeys.of(keyPrefix, queue.name(), tag).ready()).toList();
        return new KilledConsumer(redis, streams, pid, graceful);
    }

    /**
     * How the round is to be judged: as if no consumer was killed ({@link #NONE}) when this one stopped gracefully away
     * from any Redis fault, since then it leaves nothing a crash leaves: it finishes every delivery it started and
     * acknowledges or hands back every message it fetched (the component page's "Shutdown"). A kill, or a graceful stop
     * that a fault may have cut short (an acknowledgement or hand-back lost, a lease left to expire), as this.
     */
    KilledConsumer asJudged(FaultWindows faults) {
        if (graceful && killedAt > 0 && !faults.overlaps(signalledAt, killedAt, FaultWindows.AFTERMATH_MS)) {
            System.out.println("[history] consumer JVM " + pid + " stopped with SIGTERM away from Redis faults: judged"
                               + " as a consumer that is still alive");
            return NONE;
        }
        return this;
    }

    /**
     * Kills (or stops) it with {@code kill}, which returns once it exited, noting the leases it holds right before and
     * right after, then waits until each was taken over (at most a minute: what is left then shows in the drain),
     * noting when.
     */
    public void kill(Runnable kill) {
        heldEntries.putAll(heldOnceRedisAnswers());
        signalledAt = System.currentTimeMillis();
        kill.run();
        killedAt = System.currentTimeMillis();
        heldEntries.putAll(heldOnceRedisAnswers());
        heldEntries.values().forEach(body -> takenOverAt.put(body, Long.MAX_VALUE));
        try {
            await("leases of the killed consumer JVM " + pid + " taken over").atMost(TAKE_OVER_TIMEOUT)
                    .pollInterval(TAKE_OVER_POLL).until(this::noteTakenOver);
        } catch (ConditionTimeoutException e) {
            System.out.println("[history] leases of the killed consumer JVM " + pid + " not all taken over: "
                               + takenOverAt);
        }
    }

    /** The name its deliveries are noted under. */
    String consumer() {
        return "jvm-" + pid;
    }

    /** When it was killed (after it exited), epoch ms; 0 if it was not. */
    long killedAt() {
        return killedAt;
    }

    /** Whether it held a lease of the version with this body when it was killed. */
    boolean held(String body) {
        return takenOverAt.containsKey(body);
    }

    /** When the lease it held of this version was first seen taken over; {@code Long.MAX_VALUE} if never. */
    long takenOverAt(String body) {
        return takenOverAt.getOrDefault(body, Long.MAX_VALUE);
    }

    /** The leases its consumers hold now, read as soon as Redis answers (an outage round may have it down). */
    private Map<String, String> heldOnceRedisAnswers() {
        return await("the leases of consumer JVM " + pid + " read").atMost(REDIS_ANSWER_TIMEOUT)
                .pollInterval(TAKE_OVER_POLL).ignoreExceptionsInstanceOf(RedisException.class)
                .until(this::held, held -> true);
    }

    /** Notes the leases no longer held; whether none is left. Not yet when Redis does not answer. */
    private boolean noteTakenOver() {
        Map<String, String> still;
        try {
            still = held();
        } catch (RedisException e) {
            return false;
        }
        long now = System.currentTimeMillis();
        heldEntries.forEach((entry, body) -> {
            if (!still.containsKey(entry)) {
                takenOverAt.merge(body, now, Math::min);
            }
        });
        return still.isEmpty();
    }

    /**
     * The leases its consumers hold now: stream key and entry id, to the body in the entry; throws the
     * {@link RedisException} of a Redis that does not answer.
     */
    private Map<String, String> held() {
        Map<String, String> held = new HashMap<>();
        for (String key : readyStreams) {
            RStream<String, String> stream = redis.getStream(key, StringCodec.INSTANCE);
            try {
                for (String consumer : stream.getPendingInfo(QueueKeys.GROUP).getConsumerNames().keySet()) {
                    if (consumer.contains("-" + pid + "-")) {
                        stream.pendingRange(QueueKeys.GROUP, consumer, StreamMessageId.MIN, StreamMessageId.MAX,
                                MAX_PENDING_READ).forEach(
                                        (id, fields) -> bodyIn(fields)
                                                .ifPresent(body -> held.put(key + " " + id, body)));
                    }
                }
            } catch (RedisException e) {
                if (!String.valueOf(e.getMessage()).contains("NOGROUP")) {
                    throw e;
                }
                // no stream or group yet on this shard: nothing held there
            }
        }
        return held;
    }

    private static Optional<String> bodyIn(Map<String, String> fields) {
        for (String value : fields.values()) {
            Matcher matcher = ScriptedBody.PATTERN.matcher(value);
            if (matcher.find()) {
                return Optional.of(matcher.group());
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "consumer JVM " + pid + (graceful ? " stopped with SIGTERM at " : " killed at ") + killedAt + " holding "
               + takenOverAt.size() + " leases";
    }
}
