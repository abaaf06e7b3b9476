package io.github.camelredisdelay;

import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.camelredisdelay.internal.EvictionPolicyCheck;
import io.github.camelredisdelay.internal.QueueNames;
import io.github.camelredisdelay.internal.RedissonClientFactory;
import io.github.camelredisdelay.internal.SharedRegistry;
import io.github.camelredisdelay.internal.TransferTask;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.PropertyConfigurer;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.support.service.ServiceHelper;
import org.redisson.api.RedissonClient;

/**
 * The {@code redis-delay} component: a distributed, durable delay queue on Redis. It owns what the endpoints of a
 * CamelContext share: the Redis clients it creates, one transfer task per queue, and the timer thread that drives
 * the transfer tasks.
 */
@Component("redis-delay")
public class RedisDelayComponent extends HealthCheckComponent {

    @Metadata(description = "Default options for every endpoint of this component")
    private RedisDelayConfiguration configuration = new RedisDelayConfiguration();

    private final SharedRegistry<Object, RedissonClient> clients = new SharedRegistry<>();
    private final SharedRegistry<String, TransferTask> transferTasks = new SharedRegistry<>();
    private final EvictionPolicyCheck evictionPolicyCheck = new EvictionPolicyCheck();
    private ScheduledExecutorService transferTimer;
    private volatile PropertyConfigurer strictComponentConfigurer;
    private volatile PropertyConfigurer strictEndpointConfigurer;

    public RedisDelayConfiguration getConfiguration() {
        return configuration;
    }

    /**
     * Default options for every endpoint of this component.
     */
    public void setConfiguration(RedisDelayConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        QueueNames.validate(remaining);
        RedisDelayEndpoint endpoint = new RedisDelayEndpoint(uri, this, remaining, configuration.copy());
        setProperties(endpoint, parameters);
        return endpoint;
    }

    @Override
    public PropertyConfigurer getComponentPropertyConfigurer() {
        PropertyConfigurer generated = super.getComponentPropertyConfigurer();
        if (generated != null && strictComponentConfigurer == null) {
            strictComponentConfigurer = new StrictDurationsConfigurer(generated, target -> "component redis-delay");
        }
        return strictComponentConfigurer;
    }

    @Override
    public PropertyConfigurer getEndpointPropertyConfigurer() {
        PropertyConfigurer generated = super.getEndpointPropertyConfigurer();
        if (generated != null && strictEndpointConfigurer == null) {
            strictEndpointConfigurer = new StrictDurationsConfigurer(generated,
                    target -> "queue " + ((RedisDelayEndpoint) target).getQueueName());
        }
        return strictEndpointConfigurer;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        transferTimer = getCamelContext().getExecutorServiceManager()
                .newSingleThreadScheduledExecutor(this, "RedisDelayTransfer");
    }

    @Override
    protected void doStop() throws Exception {
        if (transferTimer != null) {
            // waits for the thread to end, so a stopped context leaves none behind
            getCamelContext().getExecutorServiceManager().shutdownGraceful(transferTimer, 2000);
            transferTimer = null;
        }
        super.doStop();
    }

    /**
     * The client for an endpoint's options: its client bean, or one this component creates and shares among
     * endpoints with equal connection options.
     */
    RedissonClient acquireClient(RedisDelayConfiguration options) {
        if (options.getRedissonClient() != null) {
            return options.getRedissonClient();
        }
        return clients.acquire(RedissonClientFactory.connectionKey(options),
                () -> RedissonClientFactory.create(getCamelContext(), options));
    }

    void releaseClient(RedisDelayConfiguration options) {
        if (options.getRedissonClient() == null) {
            // no quiet period: every endpoint using the client has stopped
            clients.release(RedissonClientFactory.connectionKey(options), client -> client.shutdown(0, 5, TimeUnit.SECONDS));
        }
    }

    /**
     * The transfer task of a queue, started by its first user and stopped after its last.
     */
    TransferTask acquireTransferTask(String key, Supplier<TransferTask> create) {
        return transferTasks.acquire(key, () -> {
            TransferTask task = create.get();
            ServiceHelper.startService(task);
            return task;
        });
    }

    void releaseTransferTask(String key) {
        transferTasks.release(key, ServiceHelper::stopService);
    }

    EvictionPolicyCheck evictionPolicyCheck() {
        return evictionPolicyCheck;
    }

    ScheduledExecutorService transferTimer() {
        return transferTimer;
    }

    /** Number of transfer tasks running, for tests and statistics. */
    public int runningTransferTasks() {
        return transferTasks.size();
    }
}
