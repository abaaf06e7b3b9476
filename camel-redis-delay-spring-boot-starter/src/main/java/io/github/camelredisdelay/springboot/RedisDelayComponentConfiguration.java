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
package io.github.camelredisdelay.springboot;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.ConsumerType;
import io.github.camelredisdelay.MigrateCodec;
import io.github.camelredisdelay.OnDuplicate;
import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.RedisDelayOperation;
import org.apache.camel.spring.boot.ComponentConfigurationPropertiesCommon;
import org.redisson.api.RedissonClient;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Every option of the {@code redis-delay} component, bound from {@code camel.component.redis-delay.*}
 * ({@code max-deliveries} and {@code maxDeliveries} alike). Only the options present in the configuration are handed to
 * the component, so its own defaults (shown here for the IDE) stay the component's. The field comments are plain text:
 * they become the descriptions of {@code spring-configuration-metadata.json}.
 */
@ConfigurationProperties(prefix = RedisDelayComponentConfiguration.PREFIX, ignoreUnknownFields = false)
public class RedisDelayComponentConfiguration extends ComponentConfigurationPropertiesCommon {

    /** Prefix of the component's properties. */
    public static final String PREFIX = "camel.component.redis-delay";

    /** Options set in the configuration, by their Camel name, in binding order. */
    private final Map<String, Object> bound = new LinkedHashMap<>();

    /**
     * The RedissonClient to use, as a bean reference such as #bean:queueClient; by default the only RedissonClient
     * bean, or the @Primary one of several. When set the component never shuts it down.
     */
    private RedissonClient redissonClient;

    /**
     * Redis address used without a client: the component creates (and on stop shuts down) one client. Beside a client
     * (the only RedissonClient bean, which Camel autowires) it fails startup; set autowired-enabled=false to use the
     * address. rediss:// for TLS. A database goes in database: as the path of the address (/3) it fails the startup.
     */
    private String address = "redis://127.0.0.1:6379";

    /**
     * Redis ACL user name, for the connection to address (a RedissonClient or redissonConfig has its own: beside one,
     * it fails the startup). Needs a password: without one Redis logs no user in, so it fails the startup too.
     */
    private String username;

    /**
     * Redis password, for the connection to address (a RedissonClient or redissonConfig has its own: beside one, it
     * fails the startup).
     */
    private String password;

    /**
     * Redis database index, for the connection to address (a RedissonClient or redissonConfig has its own: beside one,
     * it fails the startup).
     */
    private Integer database;

    /**
     * Path (file: or classpath:) of a Redisson YAML configuration (cluster, sentinel, replicated...).
     */
    private String redissonConfig;

    /**
     * Namespace of every key this component touches; refused with a blank at either end or a line break.
     */
    private String keyPrefix = "camel:delay";

    /**
     * Default options for every endpoint, as a bean reference such as #bean:delayDefaults.
     */
    private RedisDelayConfiguration configuration;

    /**
     * Default delay of a scheduled message: 30m, 1h30m, PT5S or milliseconds. One of 1000000000000 to 9999999999999 ms
     * (31.7 to 317 years; epoch milliseconds of 2001 to 2286) is refused as a due time given by mistake.
     */
    private String delay = "0";

    /**
     * Producer operation when the exchange names none.
     */
    private RedisDelayOperation operation = RedisDelayOperation.schedule;

    /**
     * What a schedule whose id exists does: keep the first, replace it (one already due or being delivered is still
     * delivered, and the new version at its own due time), or fail.
     */
    private OnDuplicate onDuplicate = OnDuplicate.keep;

    /**
     * Whether a schedule is strictly synchronous: the calling thread waits for Redis' reply and the route continues on
     * it, instead of on one of the component's completion threads.
     */
    private Boolean synchronous = false;

    /**
     * Whether producers start lazily, on the first message.
     */
    private Boolean lazyStartProducer = false;

    /**
     * Blocking long-poll threads, or scheduled polls every pollInterval.
     */
    private ConsumerType consumerType = ConsumerType.blocking;

    /**
     * Blocking consumer threads per endpoint (per shard); a polling consumer polls on one thread and warns when this is
     * above 1.
     */
    private Integer concurrentConsumers = 1;

    /**
     * Messages fetched per read.
     */
    private Integer maxMessagesPerPoll = 10;

    /**
     * Whether a consumer routes its messages asynchronously, up to maxMessagesPerPoll in flight per consumer thread,
     * instead of waiting for each exchange to complete.
     */
    private Boolean asyncConsumer = false;

    /**
     * Interval of the polling consumer.
     */
    private String pollInterval = "1s";

    /**
     * Lease of a delivered, unacknowledged message; after it another consumer gets the message. 100 ms to 1 day.
     */
    private String visibilityTimeout = "30s";

    /**
     * Deliveries before a message goes to the dead-letter queue, the first one included: a failed message is retried
     * max-deliveries - 1 times; 0 means unlimited.
     */
    private Integer maxDeliveries = 5;

    /**
     * Delays between redeliveries after a failed exchange; the last one repeats. A message is retried max-deliveries -
     * 1 times, so delays past that are never used. Comma-separated text or a YAML list.
     */
    private List<String> retrySchedule = List.of("1s", "5s", "30s", "2m", "10m");

    /**
     * Queue that receives exhausted messages; by default <queue>.dead.
     */
    private String deadLetterQueue;

    /**
     * Not for the component: set migrateFrom on the consumer endpoint of the one queue the RDelayedQueue goes to (set
     * here, every queue's consumer would migrate it, so startup is refused); see docs/migration-from-rdelayedqueue.md.
     */
    private String migrateFrom;

    /**
     * The Redisson codec the migrated values were written with: string or json deliver a UTF-8 String body, bytes (any
     * other codec) the codec's bytes.
     */
    private MigrateCodec migrateCodec = MigrateCodec.bytes;

    /**
     * Whether consumer errors go to the route's error handler instead of being logged.
     */
    private Boolean bridgeErrorHandler = false;

    /**
     * Due messages moved per transfer step; 1 to 10000.
     */
    private Integer transferBatchSize = 100;

    /**
     * Most messages browsing an endpoint lists, earliest due time first; 1 to 10000.
     */
    private Integer browseLimit = 100;

    /**
     * Safety-net period of the transfer task, on top of its exact timer and wake-ups; at least 10 ms.
     */
    private String transferInterval = "1s";

    /**
     * Hash tags (cluster slots) one queue is spread over, 1 to 128; the same on every node of a queue.
     */
    private Integer shards = 1;

    /**
     * After a write, wait (WAIT) until this many replicas have it.
     */
    private Integer syncReplicas = 0;

    /**
     * Also wait until the write is in the append-only files of syncReplicas replicas (WAITAOF, Redis 7.2 or Valkey 8);
     * needs syncReplicas of at least 1, and a replica without appendonly yes never counts. The master's own file is not
     * checked: use appendfsync always for it.
     */
    private Boolean syncAof = false;

    /**
     * Longest wait of syncReplicas / syncAof.
     */
    private String syncTimeout = "1s";

    /**
     * Fail at start when Redis' maxmemory-policy can evict the queue's keys (an allkeys policy), instead of logging a
     * warning.
     */
    private Boolean requireNoEviction = false;

    /**
     * Whether consumers register Camel health checks.
     */
    private Boolean healthCheckConsumerEnabled = true;

    /**
     * Whether producers register Camel health checks (also needs camel.health.producers-enabled=true).
     */
    private Boolean healthCheckProducerEnabled = true;

    /**
     * Whether the component autowires options marked as such (the RedissonClient) from the registry.
     */
    private Boolean autowiredEnabled = true;

    public RedissonClient getRedissonClient() {
        return redissonClient;
    }

    public void setRedissonClient(RedissonClient redissonClient) {
        this.redissonClient = redissonClient;
        bound.put("redissonClient", redissonClient);
    }

    public String getAddress() {
        return address;
    }

    public void setAddress(String address) {
        this.address = address;
        bound.put("address", address);
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
        bound.put("username", username);
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
        bound.put("password", password);
    }

    public Integer getDatabase() {
        return database;
    }

    public void setDatabase(Integer database) {
        this.database = database;
        bound.put("database", database);
    }

    public String getRedissonConfig() {
        return redissonConfig;
    }

    public void setRedissonConfig(String redissonConfig) {
        this.redissonConfig = redissonConfig;
        bound.put("redissonConfig", redissonConfig);
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
        bound.put("keyPrefix", keyPrefix);
    }

    public RedisDelayConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(RedisDelayConfiguration configuration) {
        this.configuration = configuration;
        bound.put("configuration", configuration);
    }

    public String getDelay() {
        return delay;
    }

    public void setDelay(String delay) {
        this.delay = delay;
        bound.put("delay", delay);
    }

    public RedisDelayOperation getOperation() {
        return operation;
    }

    public void setOperation(RedisDelayOperation operation) {
        this.operation = operation;
        bound.put("operation", operation);
    }

    public OnDuplicate getOnDuplicate() {
        return onDuplicate;
    }

    public void setOnDuplicate(OnDuplicate onDuplicate) {
        this.onDuplicate = onDuplicate;
        bound.put("onDuplicate", onDuplicate);
    }

    public Boolean getSynchronous() {
        return synchronous;
    }

    public void setSynchronous(Boolean synchronous) {
        this.synchronous = synchronous;
        bound.put("synchronous", synchronous);
    }

    public Boolean getLazyStartProducer() {
        return lazyStartProducer;
    }

    public void setLazyStartProducer(Boolean lazyStartProducer) {
        this.lazyStartProducer = lazyStartProducer;
        bound.put("lazyStartProducer", lazyStartProducer);
    }

    public ConsumerType getConsumerType() {
        return consumerType;
    }

    public void setConsumerType(ConsumerType consumerType) {
        this.consumerType = consumerType;
        bound.put("consumerType", consumerType);
    }

    public Integer getConcurrentConsumers() {
        return concurrentConsumers;
    }

    public void setConcurrentConsumers(Integer concurrentConsumers) {
        this.concurrentConsumers = concurrentConsumers;
        bound.put("concurrentConsumers", concurrentConsumers);
    }

    public Integer getMaxMessagesPerPoll() {
        return maxMessagesPerPoll;
    }

    public void setMaxMessagesPerPoll(Integer maxMessagesPerPoll) {
        this.maxMessagesPerPoll = maxMessagesPerPoll;
        bound.put("maxMessagesPerPoll", maxMessagesPerPoll);
    }

    public Boolean getAsyncConsumer() {
        return asyncConsumer;
    }

    public void setAsyncConsumer(Boolean asyncConsumer) {
        this.asyncConsumer = asyncConsumer;
        bound.put("asyncConsumer", asyncConsumer);
    }

    public String getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(String pollInterval) {
        this.pollInterval = pollInterval;
        bound.put("pollInterval", pollInterval);
    }

    public String getVisibilityTimeout() {
        return visibilityTimeout;
    }

    public void setVisibilityTimeout(String visibilityTimeout) {
        this.visibilityTimeout = visibilityTimeout;
        bound.put("visibilityTimeout", visibilityTimeout);
    }

    public Integer getMaxDeliveries() {
        return maxDeliveries;
    }

    public void setMaxDeliveries(Integer maxDeliveries) {
        this.maxDeliveries = maxDeliveries;
        bound.put("maxDeliveries", maxDeliveries);
    }

    public List<String> getRetrySchedule() {
        return retrySchedule;
    }

    public void setRetrySchedule(List<String> retrySchedule) {
        this.retrySchedule = retrySchedule;
        // the component's form, comma-separated, whichever form Spring bound
        bound.put("retrySchedule", String.join(",", retrySchedule));
    }

    public String getDeadLetterQueue() {
        return deadLetterQueue;
    }

    public void setDeadLetterQueue(String deadLetterQueue) {
        this.deadLetterQueue = deadLetterQueue;
        bound.put("deadLetterQueue", deadLetterQueue);
    }

    public String getMigrateFrom() {
        return migrateFrom;
    }

    public void setMigrateFrom(String migrateFrom) {
        this.migrateFrom = migrateFrom;
        bound.put("migrateFrom", migrateFrom);
    }

    public MigrateCodec getMigrateCodec() {
        return migrateCodec;
    }

    public void setMigrateCodec(MigrateCodec migrateCodec) {
        this.migrateCodec = migrateCodec;
        bound.put("migrateCodec", migrateCodec);
    }

    public Boolean getBridgeErrorHandler() {
        return bridgeErrorHandler;
    }

    public void setBridgeErrorHandler(Boolean bridgeErrorHandler) {
        this.bridgeErrorHandler = bridgeErrorHandler;
        bound.put("bridgeErrorHandler", bridgeErrorHandler);
    }

    public Integer getTransferBatchSize() {
        return transferBatchSize;
    }

    public void setTransferBatchSize(Integer transferBatchSize) {
        this.transferBatchSize = transferBatchSize;
        bound.put("transferBatchSize", transferBatchSize);
    }

    public Integer getBrowseLimit() {
        return browseLimit;
    }

    public void setBrowseLimit(Integer browseLimit) {
        this.browseLimit = browseLimit;
        bound.put("browseLimit", browseLimit);
    }

    public String getTransferInterval() {
        return transferInterval;
    }

    public void setTransferInterval(String transferInterval) {
        this.transferInterval = transferInterval;
        bound.put("transferInterval", transferInterval);
    }

    public Integer getShards() {
        return shards;
    }

    public void setShards(Integer shards) {
        this.shards = shards;
        bound.put("shards", shards);
    }

    public Integer getSyncReplicas() {
        return syncReplicas;
    }

    public void setSyncReplicas(Integer syncReplicas) {
        this.syncReplicas = syncReplicas;
        bound.put("syncReplicas", syncReplicas);
    }

    public Boolean getSyncAof() {
        return syncAof;
    }

    public void setSyncAof(Boolean syncAof) {
        this.syncAof = syncAof;
        bound.put("syncAof", syncAof);
    }

    public String getSyncTimeout() {
        return syncTimeout;
    }

    public void setSyncTimeout(String syncTimeout) {
        this.syncTimeout = syncTimeout;
        bound.put("syncTimeout", syncTimeout);
    }

    public Boolean getRequireNoEviction() {
        return requireNoEviction;
    }

    public void setRequireNoEviction(Boolean requireNoEviction) {
        this.requireNoEviction = requireNoEviction;
        bound.put("requireNoEviction", requireNoEviction);
    }

    public Boolean getHealthCheckConsumerEnabled() {
        return healthCheckConsumerEnabled;
    }

    public void setHealthCheckConsumerEnabled(Boolean healthCheckConsumerEnabled) {
        this.healthCheckConsumerEnabled = healthCheckConsumerEnabled;
        bound.put("healthCheckConsumerEnabled", healthCheckConsumerEnabled);
    }

    public Boolean getHealthCheckProducerEnabled() {
        return healthCheckProducerEnabled;
    }

    public void setHealthCheckProducerEnabled(Boolean healthCheckProducerEnabled) {
        this.healthCheckProducerEnabled = healthCheckProducerEnabled;
        bound.put("healthCheckProducerEnabled", healthCheckProducerEnabled);
    }

    public Boolean getAutowiredEnabled() {
        return autowiredEnabled;
    }

    public void setAutowiredEnabled(Boolean autowiredEnabled) {
        this.autowiredEnabled = autowiredEnabled;
        bound.put("autowiredEnabled", autowiredEnabled);
    }

    /** The options present in the configuration, by their Camel name. */
    Map<String, Object> boundOptions() {
        return Collections.unmodifiableMap(bound);
    }
}
