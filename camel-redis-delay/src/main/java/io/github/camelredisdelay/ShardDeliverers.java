package io.github.camelredisdelay;

import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

import io.github.camelredisdelay.internal.RedisQueue;
import org.apache.camel.support.DefaultConsumer;

/**
 * The {@link Deliverer}s of one consumer, one per shard of its queue, with what they share: the consumer's health
 * check and one lease timer thread.
 */
final class ShardDeliverers {

    private final RedisDelayEndpoint endpoint;
    private final List<Deliverer> deliverers;
    private ScheduledExecutorService leaseTimer;

    /**
     * @param deferAcks see {@link Deliverer#Deliverer}
     */
    ShardDeliverers(RedisDelayEndpoint endpoint, boolean deferAcks) {
        this.endpoint = endpoint;
        this.deliverers = endpoint.queue().all().stream()
                .map((RedisQueue shard) -> new Deliverer(endpoint, shard, deferAcks))
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
        leaseTimer = endpoint.getCamelContext().getExecutorServiceManager()
                .newSingleThreadScheduledExecutor(owner, "RedisDelayLeases[" + endpoint.getQueueName() + "]");
        deliverers.forEach(deliverer -> deliverer.start(leaseTimer));
    }

    /**
     * Stops the lease timer, then each deliverer: what finished is acknowledged, and the consumer leaves the groups.
     */
    void stop() {
        if (leaseTimer != null) {
            endpoint.getCamelContext().getExecutorServiceManager().shutdownGraceful(leaseTimer, 2000);
            leaseTimer = null;
        }
        deliverers.forEach(Deliverer::stop);
    }
}
