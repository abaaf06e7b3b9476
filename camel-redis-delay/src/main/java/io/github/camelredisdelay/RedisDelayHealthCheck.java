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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import io.github.camelredisdelay.internal.ClientShortage;
import io.github.camelredisdelay.internal.ClientShutDown;
import io.github.camelredisdelay.internal.ErrorReply;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.RedissonText;
import io.github.camelredisdelay.internal.RootCause;
import io.github.camelredisdelay.internal.ScriptCalls.Durability;
import io.github.camelredisdelay.internal.ShardedQueue;
import org.apache.camel.CamelContext;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.health.WritableHealthCheckRepository;
import org.apache.camel.impl.health.AbstractHealthCheck;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.util.StringHelper;
import org.apache.camel.util.URISupport;
import org.redisson.client.RedisException;

/**
 * Readiness of a redis-delay consumer or producer: DOWN, with the reason, while the queue's Redis (for a consumer, also
 * that of its dead-letter queue) does not answer within two seconds or refuses its writes, while a producer's writes do
 * not reach the replicas its {@code syncReplicas} asks for (each schedule would fail with
 * {@link NotReplicatedException}), while Redis refuses a consumer's fetches (an error reply, such as an ACL's
 * {@code NOPERM}), or while the endpoint's {@code shards} differs from the count its queue (for a consumer, or its
 * dead-letter queue) is stored in, or its server lacks a command the component needs; UP again as soon as it does, or
 * agrees. DOWN for good, naming it, once the application shut down the {@code RedissonClient} it gave the component.
 */
public class RedisDelayHealthCheck extends AbstractHealthCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final ShardedQueue queue;
    /** The queue, and for a consumer its dead-letter queue: the queues the probes write to. */
    private final List<ShardedQueue> written;
    /** Of the queue, and for a consumer of the dead-letter queue it moves exhausted messages to. */
    private final WriteProbes probes;
    private final ProbeRound round;
    private final Supplier<String> problem;
    private final Duration timeout;

    private RedisDelayHealthCheck(
                                  CamelContext context, String id, RedisDelayEndpoint endpoint,
                                  List<ShardedQueue> written, Supplier<String> problem, Durability durability,
                                  boolean enabled) {
        super("camel", id);
        this.queue = endpoint.queue();
        this.written = written;
        this.problem = problem;
        // the wait for replicas comes on top of the answer's time
        this.timeout = durability == Durability.REQUIRED && endpoint.getConfiguration().getSyncReplicas() > 0
                ? TIMEOUT.plusMillis(endpoint.getConfiguration().getSyncTimeout())
                : TIMEOUT;
        this.round = endpoint.probeRound();
        // how the probe write waits for replicas: as a schedule's write for a producer, not at all for a consumer
        this.probes = new WriteProbes(written, durability, endpoint.probeSender(), timeout, round);
        setCamelContext(context);
        setEnabled(enabled);
        if (enabled) {
            round.add(probes);
        }
    }

    /** Leaves the connection's round of probes: the check's consumer or producer stopped. */
    void close() {
        round.remove(probes);
    }

    /**
     * Gives a consumer its check, when the component's consumer checks are on; Camel's {@code consumers} repository
     * asks each route's consumer for it. Without, the consumer has none, not even the one Camel gives a polling
     * consumer, and Camel reports the route's own state: a check attached disabled would make it report UNKNOWN, which
     * readiness probes read as not ready.
     *
     * @param  fetchRefusal why Redis refuses the consumer's fetches, {@code null} while it does not
     * @return              the check, to {@link #close()} when the consumer stops; {@code null} when none is attached
     */
    static RedisDelayHealthCheck attach(
            DefaultConsumer consumer, RedisDelayEndpoint endpoint, boolean enabled, Supplier<String> fetchRefusal) {
        if (!enabled) {
            // also not the one Camel gives a polling consumer itself, which it disables then
            consumer.setHealthCheck(null);
            return null;
        }
        String id = "consumer:redis-delay-" + (consumer.getRouteId() != null ? consumer.getRouteId() : endpoint.getQueueName());
        Supplier<String> problem = () -> {
            String found = endpoint.consumerProblem();
            return found != null ? found : fetchRefusal.get();
        };
        RedisDelayHealthCheck check = new RedisDelayHealthCheck(
                endpoint.getCamelContext(), id, endpoint,
                List.of(endpoint.queue(), endpoint.deadLetterQueue()), problem, Durability.NONE, true);
        consumer.setHealthCheck(check);
        return check;
    }

    /**
     * Registers a producer's check in Camel's {@code producers} repository, when health checks are on. Its id names the
     * endpoint: {@code producer:<scheme>-<queue>} followed by the endpoint's options, if any, with credentials masked.
     * Camel keeps one check per id, so producers of one queue name on two Redis servers, under two key prefixes or on
     * two instances of the component need ids of their own.
     *
     * @return a handle that removes the check again; a no-op when there is no such repository
     */
    static Runnable registerForProducer(RedisDelayEndpoint endpoint, boolean enabled) {
        CamelContext context = endpoint.getCamelContext();
        WritableHealthCheckRepository repository
                = HealthCheckHelper.getHealthCheckRepository(context, "producers", WritableHealthCheckRepository.class);
        if (repository == null) {
            return () -> {
            };
        }
        RedisDelayHealthCheck check
                = new RedisDelayHealthCheck(
                        context, producerCheckId(endpoint), endpoint, List.of(endpoint.queue()),
                        endpoint::queueProblem, Durability.REQUIRED, enabled);
        repository.addHealthCheck(check);
        return () -> {
            repository.removeHealthCheck(check);
            check.close();
        };
    }

    /** {@code producer:redis-delay-orders?delay=1h} for {@code redis-delay:orders?delay=1h}. */
    private static String producerCheckId(RedisDelayEndpoint endpoint) {
        String uri = endpoint.maskedUri();
        return "producer:" + StringHelper.before(uri, ":") + "-" + URISupport.stripPrefix(StringHelper.after(uri, ":"), "//");
    }

    @Override
    public boolean isLiveness() {
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("queue", queue.name());
        String found = problem.get();
        if (found != null) {
            builder.down().message(found);
            return;
        }
        WriteProbes.Sent sent = probes.current();
        long leftNanos = timeout.toNanos() - (System.nanoTime() - sent.sentNanos());
        try {
            sent.all().get(Math.max(0, leftNanos), TimeUnit.NANOSECONDS);
            builder.up();
        } catch (TimeoutException | ExecutionException e) {
            failure(builder, sent);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            builder.down().message("Interrupted while waiting for Redis of queue " + queue.name());
        }
    }

    /** DOWN with why the first shard that did not take the probe's write did not. */
    private void failure(HealthCheckResultBuilder builder, WriteProbes.Sent sent) {
        QueueShard failed = sent.firstUnanswered();
        if (failed == null) {
            // every answer came in meanwhile
            builder.up();
            return;
        }
        String which = describe(failed);
        Throwable refusal = sent.refusal(failed);
        String shortage = refusal == null ? null : ClientShortage.advice(refusal);
        String shutDown = refusal == null ? null : ClientShutDown.advice(refusal);
        RedisException reply = refusal == null ? null : ErrorReply.itself(refusal);
        RuntimeException unconnected = failed.connectFailure();
        if (refusal == null && unconnected != null) {
            // the write waits for the client's next attempt to connect, which may take longer than the check waits
            builder.down().message("Redis of " + which + " cannot be connected to: " + unconnected.getMessage())
                    .error(unconnected);
        } else if (refusal == null && failed.callsWaitForConnection()) {
            // the client may still hold the write back: Redisson waits for a free connection up to its retries, longer
            // than the check with its defaults, and only then fails the call naming the shortage
            builder.down().message("A write of " + which + " sent "
                                   + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent.sentNanos())
                                   + " ms ago has no reply, and calls of the Redis client are waiting for a free "
                                   + "connection of its pool, so it may not have reached Redis: every connection is busy "
                                   + "with calls Redis has not answered yet. Where Redis answers other clients, the "
                                   + "client ran short, not Redis: " + ClientShortage.poolAdvice());
        } else if (refusal == null) {
            builder.down().message("Redis of " + which + " does not answer: a write sent "
                                   + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent.sentNanos())
                                   + " ms ago has no reply (the check waits " + timeout.toMillis() + " ms)");
        } else if (shortage != null) {
            builder.down().message("The write of " + which + " found no free connection: " + shortage)
                    .error(refusal);
        } else if (shutDown != null) {
            builder.down().message("The write of " + which + " failed: " + shutDown).error(refusal);
        } else if (refusal instanceof NotReplicatedException shortfall) {
            builder.down().message("A write of " + which + " " + shortfall.shortfall()
                                   + ": every schedule fails with NotReplicatedException")
                    .error(shortfall);
        } else if (reply != null) {
            builder.down().message("Redis of " + which + " refuses its writes: " + ErrorReply.plainly(reply)).error(refusal);
        } else {
            builder.down().message("Redis of " + which + " does not answer or refuses its writes: "
                                   + RootCause.added(RedissonText.words(refusal), refusal))
                    .error(refusal);
        }
    }

    /** "queue orders" or "dead-letter queue orders.dead", with the shard's number and hash tag when it has several. */
    private String describe(QueueShard shard) {
        ShardedQueue owner = written.stream().filter(each -> each.all().contains(shard)).findFirst().orElseThrow();
        return (owner == queue ? "queue " : "dead-letter queue ") + owner.describe(shard);
    }
}
