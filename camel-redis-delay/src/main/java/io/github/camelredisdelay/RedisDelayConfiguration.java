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

import io.github.camelredisdelay.internal.AddressText;
import io.github.camelredisdelay.internal.QueueNames;
import org.apache.camel.RuntimeCamelException;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.redisson.api.RedissonClient;

/**
 * Options of the {@code redis-delay} component; set on the component, overridable per endpoint.
 */
@UriParams
public class RedisDelayConfiguration implements Cloneable {

    /** Most shards of one queue: one per master of a large cluster. */
    static final int MAX_SHARDS = 128;
    /** A consumer's lease reaches Redis in its name (reclaim.lua): kept far below where Lua would print it as 1e+14. */
    static final long MAX_VISIBILITY_TIMEOUT_MS = 86_400_000;
    /** Most messages one browse lists: each shard reads at most four times as many. */
    static final int MAX_BROWSE_LIMIT = 10_000;

    private static final String DEFAULT_ADDRESS = "redis://127.0.0.1:6379";
    private static final String DEFAULT_KEY_PREFIX = "camel:delay";
    /** The default retry schedule, whose delays past {@code maxDeliveries} are not the user's to remove. */
    static final String DEFAULT_RETRY_SCHEDULE = "1s,5s,30s,2m,10m";

    @UriParam(label = "common")
    @Metadata(autowired = true)
    private RedissonClient redissonClient;
    @UriParam(label = "common", defaultValue = DEFAULT_ADDRESS)
    private String address = DEFAULT_ADDRESS;
    private boolean addressSet;
    @UriParam(label = "security", secret = true)
    private String username;
    @UriParam(label = "security", secret = true)
    private String password;
    @UriParam(label = "common")
    private Integer database;
    @UriParam(label = "common")
    private String redissonConfig;
    @UriParam(label = "common", defaultValue = DEFAULT_KEY_PREFIX)
    private String keyPrefix = DEFAULT_KEY_PREFIX;

    @UriParam(label = "producer", defaultValue = "0", javaType = "java.time.Duration")
    private long delay;
    @UriParam(label = "producer", defaultValue = "schedule")
    private RedisDelayOperation operation = RedisDelayOperation.schedule;
    @UriParam(label = "producer", defaultValue = "keep")
    private OnDuplicate onDuplicate = OnDuplicate.keep;
    @UriParam(label = "producer,advanced", defaultValue = "false")
    private boolean synchronous;

    @UriParam(label = "consumer", defaultValue = "blocking")
    private ConsumerType consumerType = ConsumerType.blocking;
    @UriParam(label = "consumer", defaultValue = "1")
    private int concurrentConsumers = 1;
    @UriParam(label = "consumer", defaultValue = "10")
    private int maxMessagesPerPoll = 10;
    @UriParam(label = "consumer", defaultValue = "false")
    private boolean asyncConsumer;
    @UriParam(label = "consumer", defaultValue = "1000", javaType = "java.time.Duration")
    private long pollInterval = 1000;
    @UriParam(label = "consumer", defaultValue = "30000", javaType = "java.time.Duration")
    private long visibilityTimeout = 30000;
    @UriParam(label = "consumer", defaultValue = "5")
    private int maxDeliveries = 5;
    @UriParam(label = "consumer", defaultValue = DEFAULT_RETRY_SCHEDULE)
    private String retrySchedule = DEFAULT_RETRY_SCHEDULE;
    @UriParam(label = "common")
    private String deadLetterQueue;
    @UriParam(label = "consumer")
    private String migrateFrom;
    @UriParam(label = "consumer", defaultValue = "bytes")
    private MigrateCodec migrateCodec = MigrateCodec.bytes;

    @UriParam(label = "advanced", defaultValue = "100")
    private int transferBatchSize = 100;
    @UriParam(label = "advanced", defaultValue = "100")
    private int browseLimit = 100;
    @UriParam(label = "advanced", defaultValue = "1000", javaType = "java.time.Duration")
    private long transferInterval = 1000;
    @UriParam(label = "advanced", defaultValue = "1")
    private int shards = 1;
    @UriParam(label = "advanced", defaultValue = "0")
    private int syncReplicas;
    @UriParam(label = "advanced", defaultValue = "false")
    private boolean syncAof;
    @UriParam(label = "advanced", defaultValue = "1000", javaType = "java.time.Duration")
    private long syncTimeout = 1000;
    @UriParam(label = "advanced", defaultValue = "false")
    private boolean requireNoEviction;

    public RedissonClient getRedissonClient() {
        return redissonClient;
    }

    /**
     * A RedissonClient to use, which the component never shuts down. Give it or address / redissonConfig, not both:
     * both on the component, or both on one endpoint, fail startup; an endpoint that sets either replaces the
     * component's choice.
     */
    public void setRedissonClient(RedissonClient redissonClient) {
        this.redissonClient = redissonClient;
    }

    public String getAddress() {
        return address;
    }

    /**
     * Redis address used when no RedissonClient is given: redis://host:port, or rediss:// for TLS. A database goes in
     * the database option: as the path of the address (/3) it fails the startup.
     */
    public void setAddress(String address) {
        this.address = address;
        this.addressSet = true;
    }

    /** Whether an address was given, rather than the default one. */
    boolean isAddressSet() {
        return addressSet;
    }

    /**
     * The connection of the component's own, as an operator reads it: {@code redissonConfig <path>} or {@code address
     * <address>}, the address without a password it may carry, followed by the user and the database when set.
     */
    String ownConnection() {
        if (redissonConfig != null) {
            return "redissonConfig " + redissonConfig;
        }
        return "address " + AddressText.of(address) + (username == null ? "" : " user " + username)
               + (database == null ? "" : " database " + database);
    }

    /**
     * Where the queues are, as an operator reads it: the RedissonClient given ({@code RedissonClient@<identity hash>}),
     * else {@link #ownConnection()}.
     */
    String redisLocation() {
        return redissonClient != null
                ? "RedissonClient@" + Integer.toHexString(System.identityHashCode(redissonClient))
                : ownConnection();
    }

    /**
     * Drops the client, address and Redisson configuration inherited from the component, and the user, password and
     * database that go with the component's address, for an endpoint that chooses its own (its URI sets them again for
     * its own address).
     */
    void forgetConnection() {
        redissonClient = null;
        address = DEFAULT_ADDRESS;
        addressSet = false;
        redissonConfig = null;
        username = null;
        password = null;
        database = null;
    }

    public String getUsername() {
        return username;
    }

    /**
     * Redis ACL user name, for the connection to address (a RedissonClient or redissonConfig has its own: beside one,
     * it fails the startup). Needs a password: without one Redis logs no user in, so it fails the startup too.
     */
    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    /**
     * Redis password, for the connection to address (a RedissonClient or redissonConfig has its own: beside one, it
     * fails the startup).
     */
    public void setPassword(String password) {
        this.password = password;
    }

    public Integer getDatabase() {
        return database;
    }

    /**
     * Redis database index, for the connection to address (a RedissonClient or redissonConfig has its own: beside one,
     * it fails the startup).
     */
    public void setDatabase(Integer database) {
        this.database = database;
    }

    public String getRedissonConfig() {
        return redissonConfig;
    }

    /**
     * Path of a Redisson YAML configuration (file: or classpath:, plain paths are files) for cluster, sentinel or
     * replicated deployments; wins over address.
     */
    public void setRedissonConfig(String redissonConfig) {
        this.redissonConfig = redissonConfig;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    /**
     * Namespace of every Redis key and channel the component uses. Refused with a blank at either end, a line break or
     * other control character, a { or }, or as null (the YAML DSL's text of a null value).
     */
    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public long getDelay() {
        return delay;
    }

    /**
     * Default delay before a scheduled message is due: 30m, 1h30m, PT5S or milliseconds. One of 1000000000000 to
     * 9999999999999 ms (31.7 to 317 years; epoch milliseconds of 2001 to 2286) is refused as a due time given by
     * mistake.
     */
    public void setDelay(long delay) {
        this.delay = delay;
    }

    public RedisDelayOperation getOperation() {
        return operation;
    }

    /**
     * What the producer does: schedule a message (or each element of the body with scheduleBatch), cancel or reschedule
     * one by id, read the queue's statistics, peek at one message by id, purge the queue, or move dead letters back to
     * it (redrive).
     */
    public void setOperation(RedisDelayOperation operation) {
        this.operation = operation;
    }

    public OnDuplicate getOnDuplicate() {
        return onDuplicate;
    }

    /**
     * What a schedule does when the message id already exists: keep the existing message, replace it, or fail.
     */
    public void setOnDuplicate(OnDuplicate onDuplicate) {
        this.onDuplicate = onDuplicate;
    }

    public boolean isSynchronous() {
        return synchronous;
    }

    /**
     * Whether a schedule is strictly synchronous: the calling thread waits for Redis' reply and the route continues on
     * it. By default a schedule completes asynchronously and the route continues on one of the component's completion
     * threads, so no thread waits per schedule; callers that wait anyway (a ProducerTemplate's sendBody from a request
     * thread, one message at a time) save that thread hand-off with true.
     */
    public void setSynchronous(boolean synchronous) {
        this.synchronous = synchronous;
    }

    public ConsumerType getConsumerType() {
        return consumerType;
    }

    /**
     * blocking: long-polling threads deliver as soon as a message is due; polling: scheduled polls every pollInterval.
     */
    public void setConsumerType(ConsumerType consumerType) {
        this.consumerType = consumerType;
    }

    public int getConcurrentConsumers() {
        return concurrentConsumers;
    }

    /**
     * Number of threads of a blocking consumer per shard of the queue (shards times this many in all); a polling
     * consumer polls on one thread and warns when this is above 1.
     */
    public void setConcurrentConsumers(int concurrentConsumers) {
        this.concurrentConsumers = concurrentConsumers;
    }

    public int getMaxMessagesPerPoll() {
        return maxMessagesPerPoll;
    }

    /**
     * Most messages fetched from Redis in one read.
     */
    public void setMaxMessagesPerPoll(int maxMessagesPerPoll) {
        this.maxMessagesPerPoll = maxMessagesPerPoll;
    }

    public boolean isAsyncConsumer() {
        return asyncConsumer;
    }

    /**
     * Whether a consumer routes its messages asynchronously: each thread of a blocking consumer hands a message to
     * Camel's asynchronous routing engine and fetches more while up to maxMessagesPerPoll of its messages are in flight
     * (a polling consumer routes a poll's messages together and polls again once they are done), instead of waiting for
     * each exchange to complete. Pays for routes that wait on non-blocking I/O; messages are then not processed
     * strictly one after another. Each message is still acknowledged when its exchange completes.
     */
    public void setAsyncConsumer(boolean asyncConsumer) {
        this.asyncConsumer = asyncConsumer;
    }

    public long getPollInterval() {
        return pollInterval;
    }

    /**
     * Interval between polls of a polling consumer.
     */
    public void setPollInterval(long pollInterval) {
        this.pollInterval = pollInterval;
    }

    public long getVisibilityTimeout() {
        return visibilityTimeout;
    }

    /**
     * How long a delivered message stays leased to its consumer without being acknowledged before another consumer gets
     * it; leases of exchanges still running are extended. From 100 ms to 1 day.
     */
    public void setVisibilityTimeout(long visibilityTimeout) {
        this.visibilityTimeout = visibilityTimeout;
    }

    public int getMaxDeliveries() {
        return maxDeliveries;
    }

    /**
     * Deliveries of a message, the first one included, before it goes to the dead-letter queue: a failed message is
     * retried maxDeliveries - 1 times; 0 retries forever.
     */
    public void setMaxDeliveries(int maxDeliveries) {
        this.maxDeliveries = maxDeliveries;
    }

    public String getRetrySchedule() {
        return retrySchedule;
    }

    /**
     * Comma-separated delays before each redelivery of a failed message; the last one repeats. A message is retried
     * maxDeliveries - 1 times, so delays past that are never used.
     */
    public void setRetrySchedule(String retrySchedule) {
        this.retrySchedule = retrySchedule;
    }

    public String getDeadLetterQueue() {
        return deadLetterQueue;
    }

    /**
     * Queue that receives messages whose deliveries are exhausted; defaults to the queue name plus .dead, and is never
     * the queue itself. Endpoints of the queue that name none (a producer's, an operator's) count, peek at and redrive
     * the one a consumer's endpoint of the queue in the same CamelContext uses.
     */
    public void setDeadLetterQueue(String deadLetterQueue) {
        this.deadLetterQueue = deadLetterQueue;
    }

    public String getMigrateFrom() {
        return migrateFrom;
    }

    /**
     * Name of a Redisson RDelayedQueue (its destination queue's name) to migrate into this queue while the consumer
     * runs: pending and already due messages move with their original due times, late writes of old producers too,
     * until the route stops. An endpoint option only: set on the component, it is refused. See
     * docs/migration-from-rdelayedqueue.md.
     */
    public void setMigrateFrom(String migrateFrom) {
        this.migrateFrom = migrateFrom;
    }

    public MigrateCodec getMigrateCodec() {
        return migrateCodec;
    }

    /**
     * The Redisson codec the migrated values were written with: string (StringCodec) or json (a JSON codec) deliver a
     * UTF-8 String body; bytes (any other codec, Kryo included) delivers the codec's bytes as a byte array. Nothing is
     * deserialized.
     */
    public void setMigrateCodec(MigrateCodec migrateCodec) {
        this.migrateCodec = migrateCodec;
    }

    public int getTransferBatchSize() {
        return transferBatchSize;
    }

    /**
     * Most due messages moved to the ready stream in one step of the transfer task; 1 to 10000.
     */
    public void setTransferBatchSize(int transferBatchSize) {
        this.transferBatchSize = transferBatchSize;
    }

    public int getBrowseLimit() {
        return browseLimit;
    }

    /**
     * Most messages browsing the endpoint lists (scheduled, ready and in flight, earliest due time first); each shard
     * reads at most four times this many (as many of each state: in flight, handed back, ready and scheduled), never
     * the whole queue. 1 to 10000.
     */
    public void setBrowseLimit(int browseLimit) {
        this.browseLimit = browseLimit;
    }

    public long getTransferInterval() {
        return transferInterval;
    }

    /**
     * Safety-net period of the transfer task, which otherwise wakes exactly when the next message is due; at least 10
     * ms.
     */
    public void setTransferInterval(long transferInterval) {
        this.transferInterval = transferInterval;
    }

    public int getShards() {
        return shards;
    }

    /**
     * Number of hash tags (cluster slots) one queue is spread over, so a busy queue can use several cluster masters; 1
     * to 128. Every producer and consumer of a queue, and of its dead-letter queue, must use the same value: the count
     * is recorded in Redis and confirmed by every running endpoint; one with another value logs an ERROR, fails its
     * operations, reads nothing and reports DOWN. It may change once the queue is empty and no endpoint with the old
     * value has run for 30 s.
     */
    public void setShards(int shards) {
        this.shards = shards;
    }

    public int getSyncReplicas() {
        return syncReplicas;
    }

    /**
     * After each schedule, cancel, reschedule and acknowledgement, wait until this many replicas have it (Redis WAIT),
     * so it survives a failover. A schedule that does not reach them within syncTimeout fails the exchange; the message
     * may still be stored, so a retry should reuse its id.
     */
    public void setSyncReplicas(int syncReplicas) {
        this.syncReplicas = syncReplicas;
    }

    public boolean isSyncAof() {
        return syncAof;
    }

    /**
     * Also wait until the write is in the append-only files of syncReplicas replicas (WAITAOF: Redis 7.2 or later,
     * Valkey 8); needs syncReplicas of at least 1, and a replica without appendonly yes never counts. The master is
     * asked to write its own file too, but the Redis client reports only the replicas' count, so a master slower than
     * syncTimeout goes unnoticed: for the master's file (and for a server without replicas) use appendfsync always. The
     * endpoint fails to start when its Redis cannot wait so (no WAITAOF, or appendonly off); a Redis that does not
     * answer at start is not checked.
     */
    public void setSyncAof(boolean syncAof) {
        this.syncAof = syncAof;
    }

    public boolean isRequireNoEviction() {
        return requireNoEviction;
    }

    /**
     * Fail at start when the Redis holding the queue has a maxmemory-policy that can evict its keys (an allkeys
     * policy), instead of logging a warning; an evicted key loses messages.
     */
    public void setRequireNoEviction(boolean requireNoEviction) {
        this.requireNoEviction = requireNoEviction;
    }

    public long getSyncTimeout() {
        return syncTimeout;
    }

    /**
     * Longest wait for syncReplicas / syncAof.
     */
    public void setSyncTimeout(long syncTimeout) {
        this.syncTimeout = syncTimeout;
    }

    /**
     * Checks every option of an endpoint of {@code queue}.
     *
     * @return                          the retry schedule's delays in ms
     * @throws IllegalArgumentException naming the first bad option, its value and what is allowed
     */
    List<Long> validate(String queue) {
        validateKeyPrefix(queue);
        if (redissonClient == null && redissonConfig == null) {
            OwnConnectionCheck.check(address, username, password, database, queue);
        }
        String delayOption = "delay option of queue " + queue;
        DueTimes.notEpochMillis(Durations.checkRange(delay, delayOption, delay), delayOption);
        atLeast("concurrentConsumers", concurrentConsumers, 1, queue);
        atLeast("maxMessagesPerPoll", maxMessagesPerPoll, 1, queue);
        atLeastMillis("pollInterval", pollInterval, 1, queue);
        atLeastMillis("visibilityTimeout", visibilityTimeout, 100, queue);
        if (visibilityTimeout > MAX_VISIBILITY_TIMEOUT_MS) {
            throw new IllegalArgumentException(
                    "Invalid visibilityTimeout " + visibilityTimeout + " ms of queue " + queue + ": at most "
                                               + MAX_VISIBILITY_TIMEOUT_MS + " ms (1 day); a lease is extended while its "
                                               + "exchange runs, so a longer one would only delay the redelivery after "
                                               + "a crash");
        }
        atLeast("maxDeliveries", maxDeliveries, 0, queue);
        atLeast("transferBatchSize", transferBatchSize, 1, queue);
        atLeastMillis("transferInterval", transferInterval, 10, queue);
        checkBrowseLimit(browseLimit, queue);
        if (transferBatchSize > 10_000) {
            throw new IllegalArgumentException(
                    "Invalid transferBatchSize " + transferBatchSize + " of queue " + queue
                                               + ": at most 10000, so one transfer step never blocks Redis for long");
        }
        atLeast("shards", shards, 1, queue);
        if (shards > MAX_SHARDS) {
            throw new IllegalArgumentException("Invalid shards " + shards + " of queue " + queue + ": at most " + MAX_SHARDS);
        }
        atLeast("syncReplicas", syncReplicas, 0, queue);
        atLeastMillis("syncTimeout", syncTimeout, 1, queue);
        if (syncAof && syncReplicas == 0) {
            throw new IllegalArgumentException(
                    "syncAof=true on queue " + queue + " needs syncReplicas of at least 1; "
                                               + "for a server without replicas configure appendfsync always instead");
        }
        if (deadLetterQueue != null) {
            QueueNames.validateOption(deadLetterQueue, "deadLetterQueue", queue);
            if (deadLetterQueue.equals(queue)) {
                throw new IllegalArgumentException(
                        "Invalid deadLetterQueue '" + deadLetterQueue + "' of queue " + queue
                                                   + ": a queue cannot be its own dead-letter queue, as its exhausted "
                                                   + "messages would come back into it at once, without end. Name "
                                                   + "another one on this endpoint, e.g. deadLetterQueue=" + queue
                                                   + ".dead; one set on the component applies to the dead-letter "
                                                   + "queue's own endpoints too");
            }
        }
        if (migrateFrom != null) {
            QueueNames.validateOption(migrateFrom, "migrateFrom", queue);
        }
        if (database != null) {
            atLeast("database", database, 0, queue);
        }
        // "," has no entries: every settlement of a failed delivery would fail, leaving the message to its lease
        List<Long> retryDelays = retrySchedule == null || retrySchedule.isBlank()
                ? List.of()
                : retryDelaysOf(retrySchedule, queue);
        if (retryDelays.isEmpty()) {
            throw new IllegalArgumentException(
                    "The retrySchedule of queue " + queue + " is empty: give at least one delay, e.g. 1s,5s,30s");
        }
        return retryDelays;
    }

    /**
     * The key prefix is the queues' namespace: one with a blank or control character at either end (a line break kept
     * from an environment variable set from a file, say) or the text the YAML DSL makes of a null value would put them
     * apart from those of every endpoint configured otherwise, in silence.
     */
    private void validateKeyPrefix(String queue) {
        if (keyPrefix == null || keyPrefix.isEmpty() || keyPrefix.contains("{") || keyPrefix.contains("}")
                || !keyPrefix.strip().equals(keyPrefix) || keyPrefix.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    "Invalid keyPrefix '" + keyPrefix + "' of queue " + queue
                                               + ": it must be non-empty, must not start or end with a blank, must "
                                               + "hold no line break or other control character, and must not contain "
                                               + "{ or }");
        }
        if (QueueNames.isNullText(keyPrefix)) {
            throw new IllegalArgumentException(
                    "Invalid keyPrefix '" + keyPrefix + "' of queue " + queue + ": it is the text the YAML DSL makes of "
                                               + "a null value. For the default, " + DEFAULT_KEY_PREFIX
                                               + ", leave keyPrefix out; else name the namespace");
        }
    }

    /**
     * The delays of {@code retrySchedule} (ms); empty when it holds only commas.
     *
     * @throws IllegalArgumentException naming {@code queue} and the entry that is empty or no delay
     */
    static List<Long> retryDelaysOf(String retrySchedule, String queue) {
        return Durations.parseList(retrySchedule, "retrySchedule of queue " + queue, "retrySchedule entry of queue " + queue);
    }

    /**
     * The queue that receives exhausted messages of {@code queue}.
     */
    String deadLetterQueueOf(String queue) {
        return deadLetterQueue != null ? deadLetterQueue : queue + ".dead";
    }

    /**
     * Refuses a {@code browseLimit} outside 1 to {@value #MAX_BROWSE_LIMIT}, naming it, {@code queue} and what is
     * allowed: in an endpoint URI, on the component, and set on a started endpoint.
     */
    static void checkBrowseLimit(int browseLimit, String queue) {
        if (browseLimit < 1 || browseLimit > MAX_BROWSE_LIMIT) {
            throw new IllegalArgumentException(
                    "Invalid browseLimit " + browseLimit + " of queue " + queue + ": 1 to " + MAX_BROWSE_LIMIT
                                               + " is allowed, so browsing lists messages and never blocks Redis "
                                               + "for long");
        }
    }

    private static void atLeast(String option, long value, long minimum, String queue) {
        atLeast(option, value, minimum, "", queue);
    }

    /** {@link #atLeast} for a duration in ms, named with its unit. */
    private static void atLeastMillis(String option, long value, long minimum, String queue) {
        atLeast(option, value, minimum, " ms", queue);
    }

    private static void atLeast(String option, long value, long minimum, String unit, String queue) {
        if (value < minimum) {
            throw new IllegalArgumentException(
                    "Invalid " + option + " " + value + unit + " of queue " + queue + ": at least " + minimum + unit
                                               + " is required");
        }
    }

    /**
     * A copy for one endpoint, so endpoint options never change the component's defaults.
     */
    public RedisDelayConfiguration copy() {
        try {
            return (RedisDelayConfiguration) clone();
        } catch (CloneNotSupportedException e) {
            throw new RuntimeCamelException(e);
        }
    }
}
