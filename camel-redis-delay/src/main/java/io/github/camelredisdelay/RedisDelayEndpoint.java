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

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.DueTime;
import io.github.camelredisdelay.internal.EvictionPolicyCheck;
import io.github.camelredisdelay.internal.InspectedMessage;
import io.github.camelredisdelay.internal.MessageIds;
import io.github.camelredisdelay.internal.MigrationProgress;
import io.github.camelredisdelay.internal.QueueAdmin;
import io.github.camelredisdelay.internal.QueueNames;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.github.camelredisdelay.internal.ShardedQueue;
import io.github.camelredisdelay.internal.SilentRedis;
import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.internal.WakeChannels;
import io.github.camelredisdelay.internal.WriteSync;
import org.apache.camel.AsyncEndpoint;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.PollingConsumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.api.management.ManagedAttribute;
import org.apache.camel.api.management.ManagedOperation;
import org.apache.camel.api.management.ManagedResource;
import org.apache.camel.spi.BrowsableEndpoint;
import org.apache.camel.spi.EndpointServiceLocation;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategyAware;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;
import org.apache.camel.support.DefaultConsumer;
import org.apache.camel.support.DefaultEndpoint;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.util.URISupport;
import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Schedule messages on a distributed, durable Redis delay queue and consume them when they are due, at least once, on
 * exactly one of any number of competing consumers.
 */
@ManagedResource(description = "Redis delay queue")
@UriEndpoint(firstVersion = "1.0.0", scheme = "redis-delay", title = "Redis Delay", syntax = "redis-delay:queueName",
             category = { Category.MESSAGING, Category.SCHEDULING }, headersClass = RedisDelayConstants.class)
public class RedisDelayEndpoint extends DefaultEndpoint
        implements AsyncEndpoint, HeaderFilterStrategyAware, BrowsableEndpoint, EndpointServiceLocation {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayEndpoint.class);

    @UriPath(description = "Name of the queue: 1 to 200 characters from A-Z a-z 0-9 . _ : -, other than null (in any case)")
    @Metadata(required = true)
    private final String queueName;
    @UriParam
    private RedisDelayConfiguration configuration;
    @UriParam(label = "advanced",
              description = "Decides which headers are stored with a message and restored on delivery; by default every "
                            + "header except Camel's own")
    private HeaderFilterStrategy headerFilterStrategy = new RedisDelayHeaderFilterStrategy();

    private ShardedQueue queue;
    private ShardedQueue deadLetterQueue;
    /** The dead-letter queue a consumer of the queue names, when this endpoint names none and its default is not it. */
    private volatile ShardedQueue otherDeadLetters;
    private MessageMapper messageMapper;
    private List<Long> retryDelays;
    private final UnusedRetryDelays unusedRetryDelays = new UnusedRetryDelays();
    private List<String> transferKeys = List.of();
    /** The periodic eviction-policy checks of the queue's shards while this endpoint runs. */
    private List<ScheduledFuture<?>> evictionWatches = List.of();
    private String wakeChannelsKey;
    private WakeChannels wakeChannels;
    private String connection;
    private ConnectionShares shares;
    /** Read by JMX and the dev console on their own threads, as {@link #statisticsKey}. */
    private volatile QueueStatistics statistics;
    /** The consumers that {@linkplain #consumerStarting started} and have not stopped. */
    private final AtomicInteger runningConsumers = new AtomicInteger();
    /**
     * The polling consumers of this endpoint (a ConsumerTemplate's, pollEnrich's) that started and have not stopped.
     */
    private final Set<RedisDelayPollingConsumer> runningPollingConsumers = ConcurrentHashMap.newKeySet();
    /** The producers that {@linkplain #producerStarted started} and have not stopped; guards {@link #stopDeferred}. */
    private final AtomicInteger runningProducers = new AtomicInteger();
    /**
     * Whether Camel stopped this endpoint while consumers or producers of it ran, and nothing started it since: the
     * last producer to stop stops it then ({@link #producerStopped}).
     */
    private boolean stopDeferred;
    /** Finds why this endpoint cannot use its queue (its shard count, its server), if it cannot; while started. */
    private volatile QueueChecks checks;
    private QueueAdmin admin;
    private volatile String statisticsKey;
    private ConnectedClient client;
    /** Where the queue's Redis is ({@link #getServiceUrl}); read by Camel's tracer on routing threads. */
    private volatile String serviceUrl;

    public RedisDelayEndpoint(String uri, RedisDelayComponent component, String queueName,
                              RedisDelayConfiguration configuration) {
        super(uri, component);
        this.queueName = QueueNames.validate(queueName);
        this.configuration = configuration;
    }

    @Override
    public RedisDelayComponent getComponent() {
        return (RedisDelayComponent) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        return new RedisDelayProducer(this);
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        requireConsumableDeadLetterQueue();
        unusedRetryDelays.warnOnce(queueName, configuration);
        DefaultConsumer consumer = configuration.getConsumerType() == ConsumerType.polling
                ? new RedisDelayScheduledPollConsumer(this, processor) : new RedisDelayConsumer(this, processor);
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    public PollingConsumer createPollingConsumer() throws Exception {
        requireConsumableDeadLetterQueue();
        unusedRetryDelays.warnOnce(queueName, configuration);
        RedisDelayPollingConsumer consumer = new RedisDelayPollingConsumer(this);
        configurePollingConsumer(consumer);
        return consumer;
    }

    /**
     * A consumer dead-letters into a queue a route must be able to consume: the default {@code <queue>.dead} of a queue
     * name over 195 characters is too long for one.
     */
    private void requireConsumableDeadLetterQueue() {
        String deadLetters = configuration.deadLetterQueueOf(queueName);
        if (deadLetters.length() > QueueNames.MAX_LENGTH) {
            throw new IllegalArgumentException(
                    "Queue " + queueName.substring(0, 20) + "... is " + queueName.length() + " characters long: the "
                                               + "default dead-letter queue of its consumer, <queue>.dead, would be "
                                               + deadLetters.length() + ", more than the " + QueueNames.MAX_LENGTH
                                               + " a route can consume. Name a deadLetterQueue, or use a queue name of at "
                                               + "most " + (QueueNames.MAX_LENGTH - ".dead".length()) + " characters");
        }
    }

    /**
     * The dead-letter queue of this name as this endpoint writes it: with its shard count and its waits for replicas
     * ({@code syncReplicas}), whichever endpoint of the queue told the name.
     */
    private ShardedQueue deadLetterQueueNamed(
            String name, ShardedQueue own, ConnectedClient client, WriteSync sync, Executor completer) {
        if (name.equals(own.name())) {
            return own;
        }
        ShardedQueue named = otherDeadLetters;
        if (named == null || !named.name().equals(name)) {
            named = ShardedQueue.of(client, configuration.getKeyPrefix(), name, configuration.getShards(), sync, completer);
            otherDeadLetters = named;
        }
        return named;
    }

    @Override
    protected void doInit() throws Exception {
        if (configuration.isAddressSet() || configuration.getRedissonConfig() != null) {
            // its own connection: Camel must not set the registry's only RedissonClient on it (autowiring); one the
            // component has it still sees beside it, and refuses
            setAutowiredEnabled(false);
        }
        super.doInit();
        readConfiguration();
    }

    /**
     * Checks the options and takes what derives from them: when Camel creates the endpoint, so that a bad URI fails
     * there, and again at each start, for what the application set on the endpoint object in between (its header
     * filter, its configuration's options).
     */
    private void readConfiguration() {
        retryDelays = configuration.validate(queueName);
        messageMapper = new MessageMapper(headerFilterStrategy, queueName);
    }

    @Override
    protected void doStart() throws Exception {
        readConfiguration();
        super.doStart();
        RedisDelayComponent component = getComponent();
        ClientChoice.checkUnambiguous(component, configuration, queueName);
        ConnectedClient client = component.acquireClient(configuration);
        this.client = client;
        serviceUrl = client.addresses();
        WriteSync sync
                = new WriteSync(configuration.getSyncReplicas(), configuration.isSyncAof(), configuration.getSyncTimeout());
        // a route continues after its schedule where the schedule's stage completes: on a completion thread
        Executor completer = component::runOnCompletionThread;
        queue = ShardedQueue.of(client, configuration.getKeyPrefix(), queueName, configuration.getShards(), sync, completer);
        deadLetterQueue = ShardedQueue.of(client, configuration.getKeyPrefix(), configuration.deadLetterQueueOf(queueName),
                configuration.getShards(), sync, completer);
        String connection = connectionId();
        this.connection = connection;
        ConnectionShares connectionShares = component.acquireConnection(connection, client);
        shares = connectionShares;
        String wakeKey = connection + "|" + configuration.getKeyPrefix();
        String statsKey = wakeKey + "|" + queueName;
        ShardedQueue started = queue;
        ShardedQueue startedDeadLetters = deadLetterQueue;
        QueueStatistics shared = component.acquireStatistics(statsKey, () -> {
            QueueStatistics created
                    = new QueueStatistics(started, startedDeadLetters, connectionShares.statisticsSilence());
            created.events(QueueMetrics.bind(getCamelContext(), configuration.getKeyPrefix(), created));
            // off the start path: the client's first call may wait for its connection
            connectionShares.transfer().execute(created::measureClockOffsetSoon);
            return created;
        });
        statistics = shared;
        statisticsKey = statsKey;
        // an endpoint refused for its shards (found by the check below) may have started first: not the one counted
        shared.countQueueOf(started, startedDeadLetters, this::queueProblem);
        otherDeadLetters = null;
        // an endpoint that names no dead-letter queue (a producer's, an operator's) uses the one its consumer names,
        // with its own shard count and waits for replicas, as its own writes
        admin = new QueueAdmin(
                queue, namesDeadLetterQueue()
                        ? () -> startedDeadLetters
                        : () -> deadLetterQueueNamed(shared.deadLetterQueue().name(), startedDeadLetters, client, sync,
                                completer),
                () -> isStoppingOrStopped() || getCamelContext().isStopping() || getCamelContext().isStopped());
        WakeChannels wake = component.acquireWakeChannels(wakeKey,
                () -> new WakeChannels(client, configuration.getKeyPrefix(), connectionShares.transfer()));
        wakeChannels = wake;
        wakeChannelsKey = wakeKey;
        // each key as soon as its task is taken: a shard that fails the check below leaves the others to doStop
        transferKeys = new ArrayList<>();
        evictionWatches = new ArrayList<>();
        TransferTask running = null;
        // a check Redis did not answer would go unanswered on every shard, each after the client's attempts, on the
        // starting thread: the queue starts unchecked
        boolean checkWrites = configuration.isSyncAof();
        for (QueueShard shard : queue.all()) {
            if (checkWrites) {
                checkWrites = shard.requireWritesCanWait();
            }
            if (configuration.isRequireNoEviction()) {
                EvictionPolicyCheck.require(shard);
            }
            // off the start thread: the client's first call waits for its connection (ConnectedClient)
            evictionWatches.add(component.evictionPolicyCheck().watch(shard, connection, connectionShares.transfer()));
            String key = connection + "|" + shard.keys().due();
            running = component.acquireTransferTask(key, () -> new TransferTask(
                    shard, wake, connectionShares.transfer(),
                    configuration.getTransferBatchSize(), configuration.getTransferInterval(),
                    () -> component.evictionPolicyCheck().checkSoon(shard, connection)));
            transferKeys.add(key);
        }
        warnOfUnusedTransferOptions(running);
        checks = new QueueChecks(
                component, client, configuration.getKeyPrefix(), connection, connectionShares.transfer(),
                maskedUri(), queue, deadLetterQueue);
        component.endpointStarted(this);
    }

    /** @return why this endpoint cannot be used as a producer or operator, or {@code null}: see {@link QueueChecks} */
    String queueProblem() {
        QueueChecks running = checks;
        return running != null ? running.queueProblem() : null;
    }

    /** @return why this endpoint cannot be used as a consumer, or {@code null}: see {@link QueueChecks} */
    String consumerProblem() {
        QueueChecks running = checks;
        return running != null ? running.consumerProblem() : null;
    }

    /**
     * Whether a consumer may read: unless it has a {@link #consumerProblem()}. Not held back until the first check
     * answers: a read of part of the queue in those milliseconds only delivers messages that are there, and while Redis
     * is down the reads must go on failing, so that the outage is reported and the consumer reads again as soon as
     * Redis is back.
     */
    boolean readsAllowed() {
        return consumerProblem() == null;
    }

    /**
     * Waits for the first check of the queue, if none has answered yet ({@link QueueChecks#requireUsableQueue}).
     *
     * @throws IllegalStateException              when this endpoint has a {@link #queueProblem()}, Redis did not answer
     *                                            the check, or the endpoint is not started
     * @throws org.redisson.client.RedisException when Redis cannot be asked (it is down, say)
     */
    void requireUsableQueue() {
        startedChecks().requireUsableQueue();
    }

    /**
     * Completes once the queue was checked (at once when it was), without a thread waiting for it; then
     * {@link #requireUsableQueue()} no longer waits.
     */
    CompletableFuture<Void> queueChecked() {
        return startedChecks().queueChecked();
    }

    private QueueChecks startedChecks() {
        QueueChecks running = checks;
        if (running == null) {
            throw new IllegalStateException("Endpoint of queue " + queueName + " is not started");
        }
        return running;
    }

    /**
     * One transfer task per shard and client moves a queue's due messages for all its endpoints in the context, with
     * the options of the endpoint that started it; this one's, where they differ, are not used.
     */
    private void warnOfUnusedTransferOptions(TransferTask running) {
        if (running != null && (running.batchSize() != configuration.getTransferBatchSize()
                || running.intervalMs() != configuration.getTransferInterval())) {
            LOG.warn("Endpoint {}: transferInterval {} ms and transferBatchSize {} are not used; queue {} already has a "
                     + "transfer task in this context, started by another of its endpoints with {} ms and {} messages. "
                     + "Set them on the component, or alike on every endpoint of the queue.",
                    maskedUri(), configuration.getTransferInterval(),
                    configuration.getTransferBatchSize(), queueName, running.intervalMs(), running.batchSize());
        }
    }

    /**
     * Starts this endpoint again for a producer that is still in use after Camel stopped it while the context was not
     * started (a route removed while the context was suspended; otherwise the endpoint stays started for its running
     * producers, see {@link #stop()}). Not while the context or the component stops: the component stops the endpoint
     * with the rest at its own stop.
     */
    void startForProducer() {
        if (isStopped() && getCamelContext().isStarted() && getComponent().isStarted()) {
            ServiceHelper.startService(this);
        }
    }

    /**
     * Releases what {@link #doStart} took, each share once, also when it failed part way (Camel then stops the
     * endpoint): a route that cannot start in a running context leaves no transfer task or client behind.
     */
    @Override
    protected void doStop() throws Exception {
        stopPollingConsumers();
        RedisDelayComponent component = getComponent();
        component.endpointStopped(this);
        if (checks != null) {
            checks.stop();
            checks = null;
        }
        transferKeys.forEach(component::releaseTransferTask);
        transferKeys = List.of();
        evictionWatches.forEach(watch -> watch.cancel(false));
        evictionWatches = List.of();
        if (wakeChannelsKey != null) {
            component.releaseWakeChannels(wakeChannelsKey);
            wakeChannelsKey = null;
            wakeChannels = null;
        }
        if (statisticsKey != null) {
            statistics.stopCountingQueueOf(queue);
            component.releaseStatistics(statisticsKey);
            statisticsKey = null;
        }
        if (shares != null) {
            component.releaseConnection(connection);
            shares = null;
        }
        if (client != null) {
            component.releaseClient(configuration);
            client = null;
        }
        queue = null;
        super.doStop();
    }

    private String connectionId() {
        RedissonClient bean = configuration.getRedissonClient();
        return bean != null ? "bean@" + System.identityHashCode(bean) : RedissonClientFactory.connectionKey(configuration);
    }

    /** The queue this endpoint schedules on or consumes from, as named in its URI. */
    public String getQueueName() {
        return queueName;
    }

    /** The endpoint's options. */
    public RedisDelayConfiguration getConfiguration() {
        return configuration;
    }

    /**
     * The endpoint's options.
     */
    public void setConfiguration(RedisDelayConfiguration configuration) {
        this.configuration = configuration;
    }

    @Override
    public HeaderFilterStrategy getHeaderFilterStrategy() {
        return headerFilterStrategy;
    }

    @Override
    public void setHeaderFilterStrategy(HeaderFilterStrategy headerFilterStrategy) {
        this.headerFilterStrategy = headerFilterStrategy;
    }

    /** Redis access for this queue's shards; available while the endpoint is started. */
    ShardedQueue queue() {
        return queue;
    }

    /**
     * A consumer of this endpoint starts: the dead-letter queue it moves exhausted messages to is the one the queue's
     * statistics count and that endpoints naming none use, one a consumer names before a consumer's default (the first
     * of them, when two name different ones, with a WARN).
     */
    void consumerStarting() {
        QueueChecks running = checks;
        if (running != null) {
            running.consumerStarting();
        }
        String other = statistics.countDeadLettersOf(deadLetterQueue, namesDeadLetterQueue());
        if (other != null) {
            LOG.warn("Consumers of queue {} name two dead-letter queues, {} and {}: its statistics, metrics and dev "
                     + "console count those of {}, and endpoints that name none redrive and peek there. Name the same "
                     + "deadLetterQueue on every consumer of the queue (or on the component)",
                    queueName, other, deadLetterQueue.name(), other);
        }
        runningConsumers.incrementAndGet();
    }

    /**
     * A consumer of this endpoint that {@linkplain #consumerStarting started} stopped: the queue's statistics count the
     * dead-letter queue of the consumers still running.
     */
    void consumerStopped() {
        runningConsumers.decrementAndGet();
        statistics.stopCountingDeadLettersOf(deadLetterQueue, namesDeadLetterQueue());
    }

    /** A polling consumer of this endpoint started: it stops before the endpoint lets go of what it uses. */
    void pollingConsumerStarted(RedisDelayPollingConsumer consumer) {
        runningPollingConsumers.add(consumer);
    }

    /** A polling consumer of this endpoint that {@linkplain #pollingConsumerStarted started} stopped. */
    void pollingConsumerStopped(RedisDelayPollingConsumer consumer) {
        runningPollingConsumers.remove(consumer);
    }

    /**
     * Stops the polling consumers still running before this endpoint lets go of its connection, which they need to stop
     * (to leave the consumer group, or hand back what a read under way brings): a stopping context stops an endpoint a
     * route consumes from before the cache of a ConsumerTemplate that received from it too.
     */
    private void stopPollingConsumers() {
        for (RedisDelayPollingConsumer consumer : List.copyOf(runningPollingConsumers)) {
            try {
                ServiceHelper.stopService(consumer);
            } catch (RuntimeException e) {
                LOG.warn("Polling consumer of queue {} failed to stop with its endpoint: {}", queueName, e.getMessage(), e);
            }
        }
    }

    /** A producer of this endpoint started: the endpoint stays started while it runs ({@link #stop()}). */
    void producerStarted() {
        runningProducers.incrementAndGet();
    }

    /**
     * A producer of this endpoint that {@linkplain #producerStarted started} stopped: the last one stops the endpoint
     * when Camel stopped it meanwhile (Camel stops the endpoint before the producer when it stops both after an
     * exchange, as {@code toD} with its cache turned off does).
     */
    void producerStopped() {
        boolean stopNow;
        synchronized (runningProducers) {
            stopNow = runningProducers.decrementAndGet() == 0 && stopDeferred;
        }
        if (stopNow) {
            stop();
        }
    }

    /** Starts this endpoint, or keeps it started (see {@link #stop()}): a stop Camel asked for before is forgotten. */
    @Override
    public void start() {
        synchronized (runningProducers) {
            stopDeferred = false;
        }
        super.start();
    }

    /**
     * Camel stops an endpoint it removes from its registry, as it does when a ConsumerTemplate's or pollEnrich's cache
     * evicts the endpoint's polling consumer, also while a route still consumes from it, and when it removes the only
     * route using it, also while a long-lived {@code ProducerTemplate} (Spring Boot's bean, say) holds a producer of
     * it. Such an endpoint stays started for its running consumers and producers, which go on with what it holds (its
     * client, its transfer task, the producers' health checks): the last producer to stop stops it when no consumer
     * runs, else the component at its own stop, and Camel's next lookup of its URI gets it back.
     */
    @Override
    public void stop() {
        if (!keptForUsers()) {
            super.stop();
        }
    }

    @Override
    public void shutdown() {
        if (!keptForUsers()) {
            super.shutdown();
        }
    }

    /** Whether this endpoint stays started for its running consumers and producers; remembers that Camel stopped it. */
    private boolean keptForUsers() {
        int consumers = runningConsumers.get();
        synchronized (runningProducers) {
            int producers = runningProducers.get();
            boolean kept = consumers + producers > 0 && getCamelContext().isStarted() && getComponent().isStarted();
            if (kept) {
                LOG.debug("Endpoint {} stays started: {} of its consumers and {} of its producers still run", maskedUri(),
                        consumers, producers);
            }
            stopDeferred |= kept;
            return kept;
        }
    }

    private boolean namesDeadLetterQueue() {
        return configuration.getDeadLetterQueue() != null;
    }

    /**
     * This endpoint's URI as logs name it, credentials masked: decoded first, since Camel stores option values
     * percent-encoded, where the password in an address' user-info is not recognized as one.
     */
    String maskedUri() {
        return URISupport.sanitizeUri(URLDecoder.decode(getEndpointUri(), StandardCharsets.UTF_8));
    }

    /** The endpoint as Camel names it (logs, exceptions, its route's text): {@link #maskedUri()}. */
    @Override
    public String toString() {
        return maskedUri();
    }

    /**
     * Keeps this endpoint's connection (its client and the lease timer) for work that outlives the endpoint's stop: the
     * leases of deliveries a stopped consumer left unsettled.
     *
     * @return gives the connection back, once
     */
    Runnable keepConnection() {
        RedisDelayComponent component = getComponent();
        RedisDelayConfiguration options = configuration;
        String kept = connection;
        component.acquireConnection(kept, component.acquireClient(options));
        AtomicBoolean givenBack = new AtomicBoolean();
        return () -> {
            if (givenBack.compareAndSet(false, true)) {
                component.releaseConnection(kept);
                component.releaseClient(options);
            }
        };
    }

    /** Redis access for this queue's dead-letter queue; available while the endpoint is started. */
    ShardedQueue deadLetterQueue() {
        return deadLetterQueue;
    }

    /** The wake channels of this endpoint's client and key prefix; available while the endpoint is started. */
    WakeChannels wakeChannels() {
        return wakeChannels;
    }

    /** The permits of consumer reads that block in Redis, shared by the endpoints of this endpoint's client. */
    Semaphore blockingReadPermits() {
        return shares.blockingReads();
    }

    /**
     * The thread that sends this endpoint's health-check probes, one per connection (the transfer tasks'): the client's
     * first call may block it for the whole connect attempt, but not a probe's caller.
     */
    Executor probeSender() {
        return shares.transfer();
    }

    /** The write probes of the health checks on this endpoint's connection, sent together. */
    ProbeRound probeRound() {
        return shares.probeRound();
    }

    /** Whether a stopping consumer found this endpoint's Redis silent, shared by the consumers of its connection. */
    SilentRedis silence() {
        return shares.silence();
    }

    /** The thread that extends the leases of this endpoint's consumers, one per connection. */
    ScheduledExecutorService leaseTimer() {
        return shares.leases();
    }

    MessageMapper messageMapper() {
        return messageMapper;
    }

    QueueStatistics statistics() {
        return statistics;
    }

    /**
     * Browse, peek, purge and redrive on this queue; available while the endpoint is started.
     *
     * @throws IllegalStateException when this endpoint's {@code shards} differs from the count its queue is stored in:
     *                               they would see, and change, only part of it
     */
    QueueAdmin admin() {
        requireUsableQueue();
        return admin;
    }

    ConnectedClient client() {
        return client;
    }

    /**
     * Where the queue's Redis is, as Camel's service registry ({@code camel get service}), tracer and JMX show it: the
     * addresses its client's configuration names (the server's, the cluster nodes', the Sentinels'), comma-separated,
     * passwords masked; {@code null} until the endpoint first started.
     */
    @Override
    public String getServiceUrl() {
        return serviceUrl;
    }

    @Override
    public String getServiceProtocol() {
        return "redis";
    }

    /** The queue and the key prefix its keys start with: what tells it from the other queues of that Redis. */
    @Override
    public Map<String, String> getServiceMetadata() {
        return Map.of("queue", queueName, "keyPrefix", configuration.getKeyPrefix());
    }

    /** Shows a running migration's progress in the statistics of every endpoint of this queue in the CamelContext. */
    void migrationStarted(MigrationProgress progress) {
        getComponent().migrations().put(progress, migratedQueue());
    }

    void migrationStopped(MigrationProgress progress) {
        getComponent().migrations().remove(progress);
    }

    /** This queue, as the component's running migrations name the queue each migrates into. */
    private String migratedQueue() {
        return configuration.getKeyPrefix() + "|" + queueName;
    }

    /**
     * The queue's statistics while this endpoint runs; they are released when it stops.
     *
     * @throws IllegalStateException when it does not run (JMX shows an endpoint before it starts and after it stops)
     */
    private QueueStatistics runningStatistics() {
        QueueStatistics running = statistics;
        if (running == null || statisticsKey == null) {
            throw new IllegalStateException(
                    "Endpoint of queue " + queueName + " is not started: its statistics are read while it runs");
        }
        return running;
    }

    /**
     * Every statistic of the queue by name: counts by state from the queue's shared snapshot (refreshed from Redis at
     * most every 2 s), this CamelContext's delivery lateness and clock offset to Redis, and the progress of a migration
     * from an RDelayedQueue ({@code migrateFrom}) this JVM runs.
     */
    public Map<String, Object> statisticsSnapshot() {
        Map<String, Object> stats = runningStatistics().asMap();
        String queue = migratedQueue();
        List<MigrationProgress> migrations = getComponent().migrations().entrySet().stream()
                .filter(migration -> migration.getValue().equals(queue)).map(Map.Entry::getKey).toList();
        if (!migrations.isEmpty()) {
            stats.putAll(MigrationProgress.snapshot(migrations));
        }
        return stats;
    }

    @ManagedAttribute(description = "Messages waiting for their due time (snapshot at most 2 s old)")
    public long getScheduledCount() {
        return runningStatistics().snapshotForMonitoring().counts().scheduled();
    }

    @ManagedAttribute(description = "Due messages not yet fetched by a consumer (snapshot at most 2 s old)")
    public long getReadyCount() {
        return runningStatistics().snapshotForMonitoring().counts().ready();
    }

    @ManagedAttribute(description = "Messages fetched by a consumer and not yet acknowledged (snapshot at most 2 s old)")
    public long getInFlightCount() {
        return runningStatistics().snapshotForMonitoring().counts().inFlight();
    }

    @ManagedAttribute(description = "Messages in the dead-letter queue (snapshot at most 2 s old)")
    public long getDeadLetteredCount() {
        return runningStatistics().snapshotForMonitoring().deadLettered();
    }

    @ManagedAttribute(description = "Milliseconds since the oldest due but unfetched message was due (snapshot at most 2 s old)")
    public long getOldestOverdueMillis() {
        return runningStatistics().snapshotForMonitoring().counts().oldestOverdueMs();
    }

    @ManagedAttribute(description = "Median delivery lateness (ms) of the last 1024 deliveries of this queue in this CamelContext")
    public long getLatenessP50Millis() {
        return runningStatistics().lateness().p50();
    }

    @ManagedAttribute(description = "99th percentile delivery lateness (ms) of the last 1024 deliveries of this queue in this CamelContext")
    public long getLatenessP99Millis() {
        return runningStatistics().lateness().p99();
    }

    @ManagedAttribute(description = "Largest delivery lateness (ms) of the last 1024 deliveries of this queue in this CamelContext")
    public long getLatenessMaxMillis() {
        return runningStatistics().lateness().max();
    }

    @ManagedAttribute(description = "Redis' clock minus this JVM's clock, in ms")
    public long getClockOffsetMillis() {
        return runningStatistics().clockOffsetMs();
    }

    @Override
    public int getBrowseLimit() {
        return configuration.getBrowseLimit();
    }

    /**
     * Sets {@code browseLimit} on this endpoint, also while it runs (Camel's browse tooling calls it).
     *
     * @throws IllegalArgumentException outside 1 to 10000, as in an endpoint URI; the limit set before is kept
     */
    @Override
    public void setBrowseLimit(int browseLimit) {
        RedisDelayConfiguration.checkBrowseLimit(browseLimit, queueName);
        configuration.setBrowseLimit(browseLimit);
    }

    /**
     * At most {@code browseLimit} messages of the queue, scheduled, ready and in flight, earliest due time first, each
     * as an exchange with the stored body and headers and header {@link RedisDelayConstants#STATE}.
     */
    @Override
    public List<Exchange> getExchanges() {
        return getExchanges(getBrowseLimit(), null);
    }

    /**
     * As Camel's {@link BrowsableEndpoint} has it: the filter applies to the first {@code browseLimit} messages, then
     * at most {@code limit} of those it keeps are listed ({@code limit} 0 or less: no limit of its own).
     */
    @Override
    public List<Exchange> getExchanges(int limit, Predicate filter) {
        int wanted = browsed(limit);
        List<Exchange> exchanges = new ArrayList<>();
        for (InspectedMessage message : admin().browse(filter == null ? wanted : getBrowseLimit())) {
            Exchange exchange = createExchange();
            messageMapper.populate(exchange, message);
            if (filter == null || filter.test(exchange)) {
                exchanges.add(exchange);
                if (exchanges.size() == wanted) {
                    break;
                }
            }
        }
        return exchanges;
    }

    /** How many messages a browse with {@code limit} lists at most: {@code browseLimit} caps it, 0 or less means it. */
    private int browsed(int limit) {
        return limit > 0 ? Math.min(limit, getBrowseLimit()) : getBrowseLimit();
    }

    /**
     * As Camel's {@link BrowseStatus} has it, the size is the queue's: all its messages, scheduled, ready and in flight
     * (one {@code HLEN} per shard), not capped at {@code browseLimit}; the timestamps are the due times of the first
     * and last message a browse with {@code limit} lists.
     */
    @Override
    public BrowseStatus getBrowseStatus(int limit) {
        QueueAdmin queue = admin();
        List<InspectedMessage> messages = queue.browse(browsed(limit));
        // read apart from the browse: messages scheduled or delivered in between may make it differ from the listing
        int size = (int) Math.min(Integer.MAX_VALUE, Math.max(queue.size(), messages.size()));
        return messages.isEmpty()
                ? new BrowseStatus(size, 0, 0)
                : new BrowseStatus(size, messages.get(0).dueAt(), messages.get(messages.size() - 1).dueAt());
    }

    /**
     * JMX: one message by id, from the queue or else its dead-letter queue, without changing it.
     *
     * @return its queue (for a dead letter, the dead-letter queue), state, times, delivery count, last error, body
     *         (text, or the size of a binary body) and the headers the {@code peek} operation gives; empty when neither
     *         queue holds the id
     */
    @ManagedOperation(description = "Shows the message with this id (queue, else dead-letter queue) without changing it")
    public Map<String, Object> peekMessage(String messageId) {
        InspectedMessage found = admin().peek(requireMessageId("peekMessage", messageId));
        Map<String, Object> shown = new LinkedHashMap<>();
        if (found != null) {
            // the message as the peek operation gives it: the headers the header filter and a consumer would restore
            Exchange exchange = createExchange();
            messageMapper.populate(exchange, found);
            Message message = exchange.getMessage();
            shown.put("id", found.id());
            shown.put("queue", found.queue());
            shown.put("state", found.state());
            shown.put("scheduledFor", found.dueAt());
            shown.put("scheduledAt", found.scheduledAt());
            shown.put("deliveryCount", found.deliveryCount());
            shown.put("lastError", message.getHeader(RedisDelayConstants.LAST_ERROR));
            shown.put("body", message.getBody() instanceof byte[] binary ? binary.length + " bytes" : message.getBody());
            shown.put("headers", new LinkedHashMap<>(message.getHeaders()));
        }
        return shown;
    }

    /**
     * JMX: removes every message of the queue, scheduled, ready or in flight.
     *
     * @param  confirm must be the queue's name; otherwise the call fails and nothing is removed
     * @return         the number of messages removed
     */
    @ManagedOperation(description = "Removes every message of the queue; pass the queue's name to confirm")
    public long purgeQueue(String confirm) {
        if (!queueName.equals(confirm)) {
            throw new IllegalArgumentException(
                    "purge of queue " + queueName + " needs the queue's name (" + queueName
                                               + ") as confirmation, in header " + RedisDelayConstants.CONFIRM
                                               + " or as the JMX operation's argument, so that a stray route cannot wipe a "
                                               + "queue; it was " + (confirm == null ? "not set" : "'" + confirm + "'")
                                               + ". Nothing was removed");
        }
        return admin().purge();
    }

    /**
     * JMX: moves at most {@code limit} dead letters back to the queue, due now, with a fresh delivery count.
     *
     * @return the number moved
     */
    @ManagedOperation(description = "Moves at most limit dead letters back to the queue, due now")
    public long redriveDeadLetters(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "redriveDeadLetters on queue " + queueName + " needs a positive limit, not " + limit);
        }
        return admin().redrive(limit, DueTime.after(0));
    }

    /**
     * JMX: moves the dead letter with this id back to the queue, due now, with a fresh delivery count.
     *
     * @return 1 when moved, 0 when the dead-letter queue holds no such message ready to move
     */
    @ManagedOperation(description = "Moves the dead letter with this id back to the queue, due now")
    public long redriveDeadLetter(String messageId) {
        return admin().redrive(requireMessageId("redriveDeadLetter", messageId), DueTime.after(0));
    }

    /**
     * The id a JMX operation names, refused as the producer's operations refuse it when no message can have it (none,
     * empty, too long): an empty one would make a redrive read the whole dead-letter queue to find nothing.
     */
    private String requireMessageId(String operation, String messageId) {
        String where = "for " + operation + " on queue " + queueName;
        if (messageId == null) {
            throw new IllegalArgumentException(
                    "Invalid message id " + where + ": no message id was given; 1 to "
                                               + MessageIds.MAX_LENGTH + " characters are allowed");
        }
        return MessageIds.requireValid(messageId, where);
    }

    /** The validated delays of the retry schedule, in ms. */
    List<Long> retryDelays() {
        return retryDelays;
    }
}
