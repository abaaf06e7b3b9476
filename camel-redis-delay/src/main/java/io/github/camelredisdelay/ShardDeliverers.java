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

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

import io.github.camelredisdelay.internal.QueueShard;
import org.apache.camel.support.DefaultConsumer;

/**
 * The {@link Deliverer}s of one consumer, one per shard of its queue, with what they share: the consumer's health
 * check; the lease timer thread is the connection's ({@link ConnectionShares}), shared by every consumer on it.
 */
final class ShardDeliverers {

    private final RedisDelayEndpoint endpoint;
    private final List<Deliverer> deliverers;
    /** Whether the endpoint still counts this consumer's dead-letter queue as the one its statistics count. */
    private boolean countingDeadLetters = true;
    /** The check {@link #start} gave the consumer, until it stops. */
    private volatile RedisDelayHealthCheck healthCheck;

    /**
     * @param forRoute see {@link Deliverer#Deliverer}
     */
    ShardDeliverers(RedisDelayEndpoint endpoint, boolean forRoute) {
        this.endpoint = endpoint;
        this.deliverers = endpoint.queue().all().stream()
                .map((QueueShard shard) -> new Deliverer(endpoint, shard, forRoute))
                .toList();
        // last: nothing that can fail follows, so the consumer's stop is certain to undo it
        endpoint.consumerStarting();
    }

    /** One per shard, shard 0 first. */
    List<Deliverer> all() {
        return deliverers;
    }

    /**
     * Gives the consumer its health check, which also reports the refusal of its fetches, and starts keeping the leases
     * of fetched messages alive.
     */
    void start(DefaultConsumer owner, FetchFailures fetchFailures) {
        healthCheck = RedisDelayHealthCheck.attach(owner, endpoint, endpoint.getComponent().isHealthCheckConsumerEnabled(),
                fetchFailures::refusal);
        keepLeases();
    }

    /** Starts keeping the leases of the messages under way alive, without a health check of a route's consumer. */
    void keepLeases() {
        ScheduledExecutorService leaseTimer = endpoint.leaseTimer();
        deliverers.forEach(deliverer -> deliverer.start(leaseTimer));
    }

    /**
     * Stops each deliverer: it stops extending leases, acknowledges what finished, and leaves the group, without
     * waiting for Redis' answer to that when {@code redisUnreachable} ({@link Deliverer#stop}); then
     * {@link #consumerStopped()}.
     */
    void stop(boolean redisUnreachable) {
        RedisDelayHealthCheck check = healthCheck;
        if (check != null) {
            check.close();
            healthCheck = null;
        }
        deliverers.forEach(deliverer -> deliverer.stop(redisUnreachable));
        consumerStopped();
    }

    /**
     * Tells the endpoint that this consumer stopped, so that the queue's statistics count the dead-letter queue of the
     * consumers still running; once, however often the consumer stops.
     */
    synchronized void consumerStopped() {
        if (countingDeadLetters) {
            countingDeadLetters = false;
            endpoint.consumerStopped();
        }
    }
}
