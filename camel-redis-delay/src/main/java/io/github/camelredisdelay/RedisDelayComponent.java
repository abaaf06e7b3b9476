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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.stream.Stream;

import io.github.camelredisdelay.internal.ClientPool;
import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.EvictionPolicyCheck;
import io.github.camelredisdelay.internal.MigrationProgress;
import io.github.camelredisdelay.internal.QueueGuard;
import io.github.camelredisdelay.internal.QueueNames;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.github.camelredisdelay.internal.SharedRegistry;
import io.github.camelredisdelay.internal.SharedService;
import io.github.camelredisdelay.internal.SilentRedis;
import io.github.camelredisdelay.internal.TransferTask;
import io.github.camelredisdelay.internal.WakeChannels;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.PropertyBindingException;
import org.apache.camel.builder.ThreadPoolProfileBuilder;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.PropertyConfigurer;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.support.PropertyBindingSupport;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.util.StringHelper;
import org.apache.camel.util.concurrent.ThreadPoolRejectedPolicy;
import org.apache.camel.util.json.DeserializationException;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.redisson.api.RedissonClient;

/**
 * The {@code redis-delay} component: a distributed, durable delay queue on Redis. It owns what the endpoints of a
 * CamelContext share: the Redis clients it creates, one wake-channel subscription per client and key prefix, one
 * transfer task per queue shard and client, and per connection the timer threads that drive the transfer tasks and
 * extend leases ({@link ConnectionShares}).
 */
@Component("redis-delay")
public class RedisDelayComponent extends HealthCheckComponent {

    /** Longest wait of the timer threads' running tasks on stop. */
    private static final long TIMER_SHUTDOWN_MS = 200;
    /**
     * Threads kept to continue routes after an asynchronous schedule: most continuations are short, so a few serve many
     * exchanges; while every one is busy, another is started.
     */
    static final int COMPLETION_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());
    /** Name of the threads of {@link #runInBackground}. */
    private static final String BACKGROUND = "RedisDelayBackground";

    @Metadata(description = "Default options for every endpoint of this component")
    private RedisDelayConfiguration configuration = new RedisDelayConfiguration();

    private final SharedRegistry<Object, ConnectedClient> clients = new SharedRegistry<>();
    private final SharedRegistry<String, TransferTask> transferTasks = new SharedRegistry<>();
    private final SharedRegistry<String, WakeChannels> wakeChannels = new SharedRegistry<>();
    private final SharedRegistry<String, QueueStatistics> statistics = new SharedRegistry<>();
    private final SharedRegistry<String, QueueGuard> queueGuards = new SharedRegistry<>();
    private final StartedEndpoints startedEndpoints = new StartedEndpoints();
    private final EvictionPolicyCheck evictionPolicyCheck = new EvictionPolicyCheck();
    private final Departures departures = new Departures();
    private final SharedRegistry<String, ConnectionShares> connections = new SharedRegistry<>();
    private final AtomicInteger timerNumbers = new AtomicInteger();
    private volatile ExecutorService completions;
    /** Consumer work that may wait for Redis ({@link #runInBackground}). */
    private volatile ExecutorService background;
    /** Set while a thread runs a task of {@link #runOnCompletionThread}. */
    private static final ThreadLocal<Boolean> COMPLETING = new ThreadLocal<>();
    /**
     * Most consumer reads of one client blocking in Redis at once: pooled connections they may hold (an eighth of
     * Redisson's default pool of 64). A pool under 32 connections lets a quarter of them block, none under 4
     * ({@link ClientPool#blockingReads}).
     */
    static final int READS_BLOCKING_IN_REDIS = 8;
    /**
     * Running migrations from RDelayedQueues, each with the key prefix and queue it migrates into, shown in the
     * statistics of every endpoint of that queue. One legacy queue may have several: each consumer endpoint naming it
     * in {@code migrateFrom} runs its own.
     */
    private final Map<MigrationProgress, String> migrations = new ConcurrentHashMap<>();
    private volatile PropertyConfigurer strictComponentConfigurer;
    private volatile PropertyConfigurer strictEndpointConfigurer;
    /** Whether the environment's options were looked for ({@link #applyEnvironment}); guarded by this. */
    private boolean environmentLooked;
    /** The environment whose options are still to be bound, until a binding succeeds, else null; guarded by this. */
    private RedisDelayEnvironmentVariables unboundEnvironment;
    /**
     * The application's own properties under the component's prefix, when the application binds the environment itself
     * ({@link #environmentReadByApplication}), else null; guarded by this.
     */
    private Set<String> applicationOptions;
    /** The options the application binds as lists ({@link #environmentReadByApplication}); guarded by this. */
    private Set<String> applicationLists;

    public RedisDelayComponent() {
    }

    /**
     * A component whose configuration is {@code configuration} itself, not a copy: for setting the options of a
     * configuration bean by name ({@link RedisDelayConfigurationConfigurer}).
     */
    RedisDelayComponent(RedisDelayConfiguration configuration) {
        this.configuration = configuration;
    }

    /**
     * The name this component has in its CamelContext (another than redis-delay for a second one, such as audit-delay),
     * whose properties configure it; redis-delay while it is not there yet (the Spring Boot starter sets the properties
     * of camel.component.redis-delay on it before Camel adds it).
     */
    String name() {
        String name = registeredName();
        return name != null ? name : "redis-delay";
    }

    /** The name this component has in its CamelContext; null while it is not there. */
    private String registeredName() {
        CamelContext context = getCamelContext();
        if (context != null) {
            for (String name : context.getComponentNames()) {
                if (context.hasComponent(name) == this) {
                    return name;
                }
            }
        }
        return null;
    }

    Map<MigrationProgress, String> migrations() {
        return migrations;
    }

    /** The default options of this component's endpoints (its own copy: see {@link #setConfiguration}). */
    public RedisDelayConfiguration getConfiguration() {
        return configuration;
    }

    /**
     * Default options for every endpoint of this component. The component keeps a copy, so that options set on it
     * afterwards (its other properties) change neither the bean nor another component sharing that bean.
     */
    public void setConfiguration(RedisDelayConfiguration configuration) {
        this.configuration = configuration.copy();
    }

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        applyEnvironment();
        QueueNames.validate(remaining);
        if (configuration.getMigrateFrom() != null) {
            // every queue's consumers, dead-letter queues' too, would migrate it: the first to start would take it all
            throw new IllegalArgumentException(
                    "migrateFrom=" + configuration.getMigrateFrom() + " is set on the redis-delay component, which would "
                                               + "make the consumer of every queue (dead-letter queues too) migrate that "
                                               + "RDelayedQueue into its own queue; set it on the consumer endpoint of "
                                               + "the one queue it goes to, e.g. from(\"redis-delay:orders?migrateFrom="
                                               + configuration.getMigrateFrom() + "\")");
        }
        RedisDelayEndpoint evicted = startedEndpoints.of(uri);
        if (evicted != null && getCamelContext().hasEndpoint(uri) == null) {
            // Camel evicted it from its endpoint cache without stopping it: a second endpoint beside it would hold its
            // own share of the queue's resources until the context stops, another for every eviction
            parameters.clear();
            return evicted;
        }
        RedisDelayConfiguration options = configuration.copy();
        if (parameters.keySet().stream().anyMatch(RedisDelayComponent::choosesRedis)) {
            // the endpoint's own choice of Redis replaces the component's, whichever way each was made
            options.forgetConnection();
        }
        RedisDelayEndpoint endpoint = new RedisDelayEndpoint(uri, this, remaining, options);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    /**
     * Whether an endpoint option names the endpoint's own Redis, written as Camel accepts any option: in any case, and
     * in kebab case ({@code redisson-config}).
     */
    private static boolean choosesRedis(String option) {
        String name = StringHelper.dashToCamelCase(option);
        return Stream.of("redissonClient", "address", "redissonConfig").anyMatch(name::equalsIgnoreCase);
    }

    @Override
    public PropertyConfigurer getComponentPropertyConfigurer() {
        PropertyConfigurer generated = super.getComponentPropertyConfigurer();
        if (generated != null && strictComponentConfigurer == null) {
            strictComponentConfigurer = new ComponentOptionsConfigurer(generated);
        }
        return strictComponentConfigurer;
    }

    /**
     * Before the first endpoint of the component, adds the environment's properties source of its name
     * ({@link RedisDelayEnvironmentVariables}: {@code CAMEL_COMPONENT_REDIS_DELAY_*}, or
     * {@code CAMEL_COMPONENT_AUDIT_DELAY_*} for a second component named audit-delay) to the context and sets the
     * component options its variables name, as camel-main does for the components it knows by name. Not through a
     * service Camel looks up as the context is built: Camel takes one {@code properties-source-factory}, which belongs
     * to the application (camel-microprofile-config's, say), and looks for {@code ContextServicePlugin}s with the
     * context's application class loader, else the JVM's system class loader, which may not see this jar (the
     * application's jars in a class loader of their own) or see another copy of it (the build fails). The variables win
     * over what was set before, property files included, but not over JVM system properties, which camel-main reads
     * after them. A binding that fails (an unknown option) fails every endpoint, not only the first: none is made
     * without the variables. Camel-main's off switch ({@code camel.component.redis-delay.enabled=false},
     * {@link RedisDelayEnvironmentVariables#switchedOff}), with which camel-main sets none of the component's
     * properties, leaves the variables unbound too. Where the application binds the environment itself
     * ({@link #environmentReadByApplication}), only a variable naming no option fails them.
     */
    private synchronized void applyEnvironment() {
        if (!environmentLooked) {
            environmentLooked = true;
            String name = registeredName();
            RedisDelayEnvironmentVariables environment = name == null ? null : new RedisDelayEnvironmentVariables(name);
            if (environment != null && (applicationOptions != null || environment.addTo(getCamelContext()))) {
                unboundEnvironment = environment;
            }
        }
        if (unboundEnvironment != null) {
            if (applicationOptions != null) {
                refuseUnread(unboundEnvironment);
            } else if (!unboundEnvironment.switchedOff(getCamelContext())) {
                bind(unboundEnvironment, unboundEnvironment.componentOptions());
            }
            unboundEnvironment = null;
        }
    }

    /**
     * Fails on a variable the application does not read ({@link RedisDelayEnvironmentVariables#refuseUnread}), knowing
     * the component's options as its catalog lists them (in camel case), those of them that are the configuration
     * bean's ({@code configuration}), and the application's own properties.
     */
    private void refuseUnread(RedisDelayEnvironmentVariables environment) {
        String catalog = "/META-INF/io/github/camelredisdelay/redis-delay.json";
        Set<String> known = new HashSet<>(applicationOptions);
        Set<String> ofConfiguration = new HashSet<>();
        try (InputStream in = RedisDelayComponent.class.getResourceAsStream(catalog)) {
            JsonObject json = (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            ((Map<?, ?>) json.get("componentProperties")).forEach((name, option) -> {
                known.add((String) name);
                if ("configuration".equals(((Map<?, ?>) option).get("configurationField"))) {
                    ofConfiguration.add((String) name);
                }
            });
        } catch (IOException | DeserializationException | RuntimeException e) {
            throw new IllegalStateException("Cannot read the component's catalog " + catalog + ": " + e, e);
        }
        environment.refuseUnread(known, applicationLists, ofConfiguration);
    }

    private void bind(RedisDelayEnvironmentVariables environment, Map<String, Object> environmentOptions) {
        try {
            PropertyBindingSupport.build().withCamelContext(getCamelContext()).withTarget(this)
                    .withConfigurer(getComponentPropertyConfigurer()).withMandatory(true).withRemoveParameters(false)
                    .withIgnoreCase(true).withProperties(environmentOptions).bind();
        } catch (PropertyBindingException e) {
            throw new IllegalArgumentException(
                    "The environment variable " + environment.variable(e.getPropertyName()) + " does not configure the "
                                               + environment.componentName() + " component: " + e.getMessage(),
                    e);
        }
    }

    /**
     * For an application that binds the {@code CAMEL_COMPONENT_REDIS_DELAY_*} environment variables itself, in its own
     * order of property sources (Spring Boot, whose starter calls this before setting the options): the component then
     * sets none of the options they name, which would override what outranks the environment there (command-line
     * arguments), and only refuses, at its first endpoint, a variable naming neither one of its options nor one of
     * {@code applicationOptions}, the application's own properties under its prefix ({@code enabled}), nor, as Spring
     * Boot reads them, an element of one of {@code listOptions}, the options the application binds as lists
     * ({@code ..._RETRY_SCHEDULE_0}), nor an option of the configuration bean ({@code ..._CONFIGURATION_DELAY}).
     */
    public synchronized void environmentReadByApplication(Set<String> applicationOptions, Set<String> listOptions) {
        this.applicationOptions = Set.copyOf(applicationOptions);
        this.applicationLists = Set.copyOf(listOptions);
    }

    @Override
    public PropertyConfigurer getEndpointPropertyConfigurer() {
        PropertyConfigurer generated = super.getEndpointPropertyConfigurer();
        if (generated != null && strictEndpointConfigurer == null) {
            strictEndpointConfigurer = new StrictOptionsConfigurer(
                    generated,
                    target -> "queue " + ((RedisDelayEndpoint) target).getQueueName());
        }
        return strictEndpointConfigurer;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        // no queue, and no limit: a continuation that waits (for another route, whose schedule completes here too)
        // must never keep another from starting, else routes that wait for each other hang. A task is handed to an
        // idle thread, else to a new one; the first COMPLETION_THREADS are kept (Camel's default profile would end
        // them too), the others end after Camel's keep-alive idle (a minute by default); never run on the caller, the
        // Redis client's I/O thread (Camel's default policy), but refused once the pool shuts down
        // (runOnCompletionThread)
        completions = getCamelContext().getExecutorServiceManager().newThreadPool(this, "RedisDelayCompletions",
                new ThreadPoolProfileBuilder("RedisDelayCompletions").poolSize(COMPLETION_THREADS)
                        .allowCoreThreadTimeOut(false).maxPoolSize(Integer.MAX_VALUE).maxQueueSize(0)
                        .rejectedPolicy(ThreadPoolRejectedPolicy.Abort).build());
        // no queue, and no limit either: each task may wait out the client's retries while Redis is away, and must not
        // hold up another queue's; idle threads end after Camel's keep-alive idle
        background = getCamelContext().getExecutorServiceManager().newThreadPool(this, BACKGROUND,
                new ThreadPoolProfileBuilder(BACKGROUND).poolSize(1).allowCoreThreadTimeOut(true)
                        .maxPoolSize(Integer.MAX_VALUE).maxQueueSize(0).rejectedPolicy(ThreadPoolRejectedPolicy.Abort)
                        .build());
    }

    /**
     * Runs {@code task}, consumer work that may wait for Redis or shut a client down (handing messages back, trying
     * settlements again, leaving the consumer group, giving a kept connection back), on one of the component's
     * background threads: not on the JVM's common pool, whose threads the application needs, nor on the Redis client's
     * I/O threads or a lease timer. Once they have stopped (a late settlement's consumer leaving as the component
     * stops), on a thread of its own.
     */
    void runInBackground(Runnable task) {
        if (handedTo(background, task)) {
            return;
        }
        Thread thread = new Thread(task, getCamelContext().getExecutorServiceManager().resolveThreadName(BACKGROUND));
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Runs {@code task} (the completion of asynchronous Redis calls, after which routes continue) on one of the
     * component's completion threads, so that it never runs on the Redis client's I/O thread; once they are stopping (a
     * reply to a schedule a {@code ProducerTemplate} sent as the context stops, which no graceful shutdown waits for),
     * in the background ({@link #runInBackground}), still not on the thread it came in on.
     */
    void runOnCompletionThread(Runnable task) {
        Runnable completing = () -> {
            COMPLETING.set(Boolean.TRUE);
            try {
                task.run();
            } finally {
                COMPLETING.remove();
            }
        };
        if (!handedTo(completions, completing)) {
            runInBackground(completing);
        }
    }

    /** Whether {@code pool} took {@code task}: not when it is not started, or stopped (rejects it). */
    private static boolean handedTo(ExecutorService pool, Runnable task) {
        if (pool == null) {
            return false;
        }
        try {
            pool.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * Runs {@code action} with the outcome of {@code stage} on a completion thread ({@link #runOnCompletionThread}):
     * where the stage completes, when that is one, else handed to one. A stage that is complete before this is called
     * (Redis replied before the caller got here) would otherwise run {@code action} on the calling thread.
     */
    <T> void whenCompleteOnCompletionThread(CompletionStage<T> stage, BiConsumer<? super T, ? super Throwable> action) {
        stage.whenComplete((value, failure) -> {
            if (onCompletionThread()) {
                action.accept(value, failure);
            } else {
                runOnCompletionThread(() -> action.accept(value, failure));
            }
        });
    }

    /**
     * Whether the calling thread is one of the component's completion threads: a route that continued there after a
     * schedule. What such a thread schedules next it waits for, woken by the Redis client's thread: handing the route
     * on to yet another completion thread would only add a hand-off.
     */
    static boolean onCompletionThread() {
        return COMPLETING.get() != null;
    }

    /**
     * One thread for the timers of every queue of a connection (transfers, or lease extensions), without a queue limit,
     * since each queue keeps a timer armed there. A platform thread of its own, named as Camel names its threads, not
     * one of Camel's thread pool factory: with {@code camel.threads.virtual.enabled} that makes virtual threads, which
     * the JVM does not preempt, so CPU-bound exchanges on every carrier thread would hold up lease extensions until the
     * leases expired and another consumer delivered their messages again. Shut down with its connection's last
     * endpoint, or with the component ({@link #stopTimers}).
     */
    private ScheduledExecutorService timerThread(String name) {
        String threadName = getCamelContext().getExecutorServiceManager().resolveThreadName(name);
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, threadName);
            thread.setDaemon(true);
            return thread;
        });
        // a cancelled timer (a stopped queue's) leaves the queue at once
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }

    /**
     * Stops a connection's timers: their tasks only arm timers and send asynchronous calls; a task still stuck in the
     * client's first connect (ConnectedClient blocks the caller) is interrupted rather than waited for.
     */
    private void stopTimers(ConnectionShares shares) {
        getCamelContext().getExecutorServiceManager().shutdownGraceful(shares.transfer(), TIMER_SHUTDOWN_MS);
        getCamelContext().getExecutorServiceManager().shutdownGraceful(shares.leases(), TIMER_SHUTDOWN_MS);
    }

    @Override
    protected void doStop() throws Exception {
        if (completions != null) {
            // producers have stopped: what is queued finishes routing exchanges whose schedule completed
            getCamelContext().getExecutorServiceManager().shutdownGraceful(completions, TIMER_SHUTDOWN_MS);
            completions = null;
        }
        for (RedisDelayEndpoint endpoint : startedEndpoints.snapshot()) {
            ServiceHelper.stopService(endpoint);
        }
        // the last acknowledgements and leaves of the consumers, sent without waiting each
        departures.await();
        // clients a stopped consumer still kept for deliveries that never settled (deaf to the stop), and the timers
        // of their connections
        clients.disposeAll(ConnectedClient::shutdown);
        connections.disposeAll(this::stopTimers);
        if (background != null) {
            // after the clients: a task still waiting for Redis on one of them fails now rather than being interrupted
            getCamelContext().getExecutorServiceManager().shutdownGraceful(background, TIMER_SHUTDOWN_MS);
            background = null;
        }
        super.doStop();
    }

    /**
     * The client for an endpoint's options: its client bean, or one this component creates and shares among endpoints
     * with equal connection options.
     */
    ConnectedClient acquireClient(RedisDelayConfiguration options) {
        RedissonClient bean = options.getRedissonClient();
        if (bean != null) {
            return clients.acquire(bean, () -> ConnectedClient.borrowed(RedissonClientFactory.checkedBean(bean)));
        }
        return clients.acquire(RedissonClientFactory.connectionKey(options),
                () -> ConnectedClient.owned(RedissonClientFactory.config(getCamelContext(), options),
                        options.ownConnection()));
    }

    void releaseClient(RedisDelayConfiguration options) {
        RedissonClient bean = options.getRedissonClient();
        // every endpoint using the client has stopped and settled its work: nothing in flight is worth waiting for; a
        // command still waiting for the client's first connections would hold the stop for the whole wait
        clients.release(bean != null ? bean : RedissonClientFactory.connectionKey(options), ConnectedClient::shutdown);
    }

    /**
     * The transfer task of a queue shard on one client ({@code key}: the connection and the shard's keys), started by
     * its first user and stopped after its last.
     */
    TransferTask acquireTransferTask(String key, Supplier<TransferTask> create) {
        return acquireStarted(transferTasks, key, create);
    }

    void releaseTransferTask(String key) {
        transferTasks.release(key, SharedService::stop);
    }

    /** The departures of the consumers of a stopping CamelContext, which this component's stop waits for. */
    Departures departures() {
        return departures;
    }

    EvictionPolicyCheck evictionPolicyCheck() {
        return evictionPolicyCheck;
    }

    /**
     * The wake channels of a client and key prefix, subscribed by their first user and unsubscribed after their last.
     */
    WakeChannels acquireWakeChannels(String key, Supplier<WakeChannels> create) {
        return acquireStarted(wakeChannels, key, create);
    }

    /** The shared service under {@code key}, created and started by its first user. */
    private static <
            S extends SharedService> S acquireStarted(SharedRegistry<String, S> registry, String key, Supplier<S> create) {
        return registry.acquire(key, () -> {
            S service = create.get();
            service.start();
            return service;
        });
    }

    void releaseWakeChannels(String key) {
        wakeChannels.release(key, SharedService::stop);
    }

    void endpointStarted(RedisDelayEndpoint endpoint) {
        startedEndpoints.add(endpoint);
    }

    void endpointStopped(RedisDelayEndpoint endpoint) {
        startedEndpoints.remove(endpoint);
    }

    /**
     * The guard of a queue ({@link QueueGuard}: its shard count, its server's commands), shared on one connection and
     * key prefix by the endpoints of the queue and the endpoints whose consumers name it as their dead-letter queue,
     * those with the same {@code shards}; it stops after the last of them.
     */
    QueueGuard acquireQueueGuard(String key, Supplier<QueueGuard> create) {
        return queueGuards.acquire(key, create);
    }

    void releaseQueueGuard(String key) {
        queueGuards.release(key, QueueGuard::stop);
    }

    /**
     * The statistics of a queue, shared by every endpoint of the queue in this CamelContext.
     */
    QueueStatistics acquireStatistics(String key, Supplier<QueueStatistics> create) {
        return statistics.acquire(key, create);
    }

    void releaseStatistics(String key) {
        statistics.release(key, released -> released.events().close());
    }

    /**
     * What the endpoints of a connection (of {@code client}) share, created by its first endpoint; its threads stop
     * after its last.
     */
    ConnectionShares acquireConnection(String connection, ConnectedClient client) {
        return connections.acquire(connection, () -> {
            int number = timerNumbers.incrementAndGet();
            return new ConnectionShares(
                    timerThread("RedisDelayTransfer-" + number), timerThread("RedisDelayLeases-" + number),
                    new Semaphore(ClientPool.blockingReads(client, READS_BLOCKING_IN_REDIS)), new ProbeRound(),
                    new SilentRedis(), new SilentRedis());
        });
    }

    void releaseConnection(String connection) {
        connections.release(connection, this::stopTimers);
    }

    /** Number of transfer tasks running (one per queue shard and client), for tests. */
    public int runningTransferTasks() {
        return transferTasks.size();
    }
}
