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

import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.internal.Backoff;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.internal.OutageLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the migration of a consumer with {@code migrateFrom}: steps a {@link MigrationTask} on a thread of its own while
 * the consumer runs, back to back while full batches move, then every {@value #IDLE_MS} ms to catch late writes of old
 * producers. Moves nothing while the endpoint's {@code shards} differs from the count its queue is stored in.
 */
final class LegacyMigration {

    private static final Logger LOG = LoggerFactory.getLogger(LegacyMigration.class);
    /** Between steps once the legacy queue is drained: late legacy messages are moved within this time. */
    static final long IDLE_MS = 200;

    private final RedisDelayEndpoint endpoint;
    private final Object owner;
    private final MigrationTask task;
    private final OutageLog outage;
    private final Backoff backoff = new Backoff(100, 5000);
    private ScheduledExecutorService thread;
    private volatile boolean running;
    private final AtomicBoolean notTextReported = new AtomicBoolean();

    LegacyMigration(RedisDelayEndpoint endpoint, Object owner) {
        RedisDelayConfiguration options = endpoint.getConfiguration();
        this.endpoint = endpoint;
        this.owner = owner;
        String legacy = options.getMigrateFrom();
        MigrateCodec codec = options.getMigrateCodec();
        LegacyDelayedQueue legacyQueue = new LegacyDelayedQueue(endpoint.client(), options.getKeyPrefix(), legacy);
        Map<String, Object> headers = Map.of(RedisDelayConstants.MIGRATED_FROM, legacy);
        this.task = new MigrationTask(
                legacyQueue, endpoint.queue(),
                value -> EnvelopeCodec.encode(new Envelope(body(codec, value), headers)));
        this.outage = new OutageLog(LOG, "Migration from RDelayedQueue " + legacy + " to queue " + endpoint.getQueueName());
    }

    /**
     * The body of a migrated value; warns once when it does not look written with the codec the option names
     * ({@link MigrateCodec#mismatch}).
     */
    private Object body(MigrateCodec codec, byte[] value) {
        Object body = codec.body(value);
        if (!notTextReported.get()) {
            String mismatch = codec.mismatch(body);
            if (mismatch != null && notTextReported.compareAndSet(false, true)) {
                LOG.warn("Migration from RDelayedQueue {} to queue {}: {}. Reported once",
                        endpoint.getConfiguration().getMigrateFrom(), endpoint.getQueueName(), mismatch);
            }
        }
        return body;
    }

    /**
     * Starts the migration the consumer's {@code migrateFrom} option asks for.
     *
     * @param  owner the consumer, owner of the migration's thread
     * @return       the running migration, or null without the option
     */
    static LegacyMigration startFor(RedisDelayEndpoint endpoint, Object owner) {
        if (endpoint.getConfiguration().getMigrateFrom() == null) {
            return null;
        }
        LegacyMigration migration = new LegacyMigration(endpoint, owner);
        endpoint.migrationStarted(migration.task.progress());
        migration.start();
        return migration;
    }

    private void start() {
        running = true;
        thread = endpoint.getCamelContext().getExecutorServiceManager().newSingleThreadScheduledExecutor(owner,
                "RedisDelayMigration[" + endpoint.getQueueName() + "]");
        thread.execute(this::step);
    }

    void stop() {
        running = false;
        endpoint.migrationStopped(task.progress());
        if (thread != null) {
            endpoint.getCamelContext().getExecutorServiceManager().shutdownGraceful(thread, 2000);
            thread = null;
        }
    }

    private void step() {
        if (!running) {
            return;
        }
        long next;
        try {
            // an endpoint refused for its shards would write into shards the queue's consumers never read: the
            // migration waits, as its consumer does, with the problem logged
            endpoint.requireUsableQueue();
            next = task.step() ? 0 : IDLE_MS;
            outage.succeeded();
            backoff.reset();
        } catch (RuntimeException e) {
            if (!running) {
                return;
            }
            outage.failed(e);
            next = backoff.next();
        }
        ScheduledExecutorService current = thread;
        try {
            if (running && current != null) {
                current.schedule(this::step, next, TimeUnit.MILLISECONDS);
            }
        } catch (RejectedExecutionException stopping) {
            LOG.debug("Migration to queue {} stops", endpoint.getQueueName());
        }
    }
}
