package io.github.camelredisdelay;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

import io.github.camelredisdelay.internal.QueueShard;
import org.apache.camel.support.DefaultConsumer;

/**
 * The {@link Deliverer}s of one consumer, one per shard of its queue, with what they share: the consumer's health
 * check; the lease timer thread is the component's, shared by every consumer.
 */
final class ShardDeliverers {

    private final RedisDelayEndpoint endpoint;
    private final List<Deliverer> deliverers;

    /**
     * @param deferAcks see {@link Deliverer#Deliverer}
     */
    ShardDeliverers(RedisDelayEndpoint endpoint, boolean deferAcks) {
        this.endpoint = endpoint;
        this.deliverers = endpoint.queue().all().stream()
                .map((QueueShard shard) -> new Deliverer(endpoint, shard, deferAcks))
                .toList();
    }

    /** One per shard, shard 0 first. */
    List<Deliverer> all() {
        return deliverers;
    }

    /**
     * Gives the consumer its health check and starts keeping the leases of fetched messages alive.
     */
    void start(DefaultConsumer owner) {
        RedisDelayHealthCheck.attach(owner, endpoint.queue(), endpoint.getComponent().isHealthCheckConsumerEnabled());
        ScheduledExecutorService leaseTimer = endpoint.getComponent().leaseTimer();
        deliverers.forEach(deliverer -> deliverer.start(leaseTimer));
    }

    /**
     * Stops each deliverer: it stops extending leases, acknowledges what finished, and leaves the group.
     */
    void stop() {
        deliverers.forEach(Deliverer::stop);
    }
}
