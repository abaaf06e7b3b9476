package io.github.camelredisdelay;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.internal.Backoff;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.OutageLog;
import org.apache.camel.Processor;
import org.apache.camel.ShutdownRunningTask;
import org.apache.camel.spi.ShutdownAware;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The blocking consumer: {@code concurrentConsumers} long-polling threads per shard of the queue read the ready
 * stream through the consumer group, so each message goes to one consumer of all nodes as soon as it is due. It also takes over
 * messages whose lease expired (their consumer died) and extends the leases of its own running exchanges.
 * <p>
 * On graceful shutdown it stops fetching, finishes and settles what it has fetched; anything unfinished stays
 * leased in Redis and is delivered again after {@code visibilityTimeout}.
 */
public class RedisDelayConsumer extends DefaultConsumer implements ShutdownAware {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayConsumer.class);
    /** Longest wait of one read; bounds how long a stopping consumer waits for its threads. */
    private static final Duration BLOCK = Duration.ofSeconds(1);

    private final RedisDelayEndpoint endpoint;
    private final AtomicInteger pending = new AtomicInteger();
    private final OutageLog outage;
    private final Backoff backoff = new Backoff(50, 1000);

    private volatile boolean fetching;
    private ShardDeliverers deliverers;
    private ExecutorService readers;

    public RedisDelayConsumer(RedisDelayEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.endpoint = endpoint;
        this.outage = new OutageLog(LOG, "Consumer of queue " + endpoint.getQueueName());
    }

    @Override
    public RedisDelayEndpoint getEndpoint() {
        return endpoint;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        RedisDelayConfiguration options = endpoint.getConfiguration();
        deliverers = new ShardDeliverers(endpoint, true);
        fetching = true;
        deliverers.start(this);
        List<Deliverer> shards = deliverers.all();
        readers = endpoint.getCamelContext().getExecutorServiceManager().newFixedThreadPool(this,
                "RedisDelayConsumer[" + endpoint.getQueueName() + "]", options.getConcurrentConsumers() * shards.size());
        for (int i = 0; i < options.getConcurrentConsumers(); i++) {
            shards.forEach(shard -> readers.execute(() -> fetchLoop(shard)));
        }
    }

    @Override
    protected void doStop() throws Exception {
        fetching = false;
        if (readers != null) {
            // a read blocks at most BLOCK while Redis is up; while it is down, interrupt Redisson's retries
            endpoint.getCamelContext().getExecutorServiceManager().shutdownGraceful(readers, BLOCK.toMillis() + 1000);
            readers = null;
        }
        if (deliverers != null) {
            deliverers.stop();
        }
        super.doStop();
    }

    private void fetchLoop(Deliverer deliverer) {
        int count = endpoint.getConfiguration().getMaxMessagesPerPoll();
        while (fetching && isRunAllowed()) {
            if (isSuspendingOrSuspended()) {
                pause(BLOCK.toMillis());
                continue;
            }
            List<Delivery> batch;
            try {
                batch = deliverer.fetch(count, BLOCK);
                outage.succeeded();
                backoff.reset();
            } catch (RuntimeException e) {
                if (!fetching) {
                    break;
                }
                outage.failed(e);
                pause(backoff.next());
                continue;
            }
            pending.addAndGet(batch.size());
            for (Delivery delivery : batch) {
                try {
                    deliverer.deliver(delivery, this);
                } finally {
                    pending.decrementAndGet();
                }
            }
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fetching = false;
        }
    }

    @Override
    public boolean deferShutdown(ShutdownRunningTask shutdownRunningTask) {
        return false;
    }

    @Override
    public int getPendingExchangesSize() {
        return pending.get();
    }

    @Override
    public void prepareShutdown(boolean suspendOnly, boolean forced) {
        if (!suspendOnly) {
            fetching = false;
        }
    }
}
