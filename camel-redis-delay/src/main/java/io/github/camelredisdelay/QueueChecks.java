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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.QueueGuard;
import io.github.camelredisdelay.internal.ShardedQueue;

/**
 * The checks ({@link QueueGuard}: the shard count, the server's commands) a started endpoint takes part in: its queue's
 * from its start, and its consumers' dead-letter queue's from its first consumer's start (a consumer dead-letters with
 * the endpoint's {@code shards}). One check per queue and shard count on a connection and key prefix, shared through
 * the component however many endpoints name the queue (toD makes one per URI), as their queue or as their consumers'
 * dead-letter queue.
 */
final class QueueChecks {

    /** How long an operation waits for the first check of its queue. */
    private static final long QUEUE_CHECK_WAIT_MS = 5000;

    private final RedisDelayComponent component;
    private final ConnectedClient client;
    private final String keyPrefix;
    private final String connection;
    private final ScheduledExecutorService timer;
    /** The endpoint, as the checks' logs name it. */
    private final String endpoint;
    private final ShardedQueue deadLetterQueue;
    private final String queueKey;
    private final QueueGuard queue;
    private String deadLetterKey;
    private volatile QueueGuard deadLetters;
    private boolean stopped;

    /**
     * Joins the check of {@code queue}, starting it when no endpoint runs it yet.
     *
     * @param connection the connection the endpoint's client is, as the component's shares name it
     * @param timer      runs the checks, every {@code QueueGuard.CONFIRM_EVERY_MS}
     * @param endpoint   the endpoint's URI, credentials masked
     */
    QueueChecks(RedisDelayComponent component, ConnectedClient client, String keyPrefix, String connection,
                ScheduledExecutorService timer, String endpoint, ShardedQueue queue, ShardedQueue deadLetterQueue) {
        this.component = component;
        this.client = client;
        this.keyPrefix = keyPrefix;
        this.connection = connection;
        this.timer = timer;
        this.endpoint = endpoint;
        this.deadLetterQueue = deadLetterQueue;
        this.queueKey = key(queue);
        this.queue = join(queueKey, queue, "");
    }

    /**
     * @return why the endpoint cannot be used as a producer or operator: its {@code shards} differs from the count its
     *         queue is stored in, or the queue's server lacks a command; or {@code null}
     */
    String queueProblem() {
        return queue.problem();
    }

    /**
     * @return why the endpoint cannot be used as a consumer: the {@link #queueProblem()}, or the same for its
     *         dead-letter queue once a consumer started; or {@code null}
     */
    String consumerProblem() {
        String problem = queueProblem();
        QueueGuard deadLetterCheck = deadLetters;
        if (problem != null || deadLetterCheck == null) {
            return problem;
        }
        String deadLetterProblem = deadLetterCheck.problem();
        return deadLetterProblem == null ? null : deadLetteringRole() + deadLetterProblem;
    }

    /**
     * Waits for the first check of the queue, if none has answered yet (at most {@value #QUEUE_CHECK_WAIT_MS} ms).
     *
     * @throws IllegalStateException              when the endpoint has a {@link #queueProblem()}, or Redis did not
     *                                            answer the check
     * @throws org.redisson.client.RedisException when Redis cannot be asked (it is down, say)
     */
    void requireUsableQueue() {
        queue.requireAnswer(Duration.ofMillis(QUEUE_CHECK_WAIT_MS));
        String problem = queue.problem();
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /** Completes once the queue was checked (at once when it was), without a thread waiting for it. */
    CompletableFuture<Void> queueChecked() {
        return queue.answer(Duration.ofMillis(QUEUE_CHECK_WAIT_MS));
    }

    /** A consumer of the endpoint starts: its dead-letter queue must be stored in as many shards as the endpoint's. */
    synchronized void consumerStarting() {
        if (deadLetters == null && !stopped) {
            deadLetterKey = key(deadLetterQueue);
            deadLetters = join(deadLetterKey, deadLetterQueue, deadLetteringRole());
        }
    }

    /** Leaves the checks the endpoint joined; the last endpoint to leave one stops it. */
    synchronized void stop() {
        stopped = true;
        queue.leave(endpoint, "");
        component.releaseQueueGuard(queueKey);
        if (deadLetters != null) {
            deadLetters.leave(endpoint, deadLetteringRole());
            component.releaseQueueGuard(deadLetterKey);
            deadLetters = null;
        }
    }

    /**
     * What an endpoint that checks its dead-letter queue puts before that queue's problem: the queue is not its own,
     * the count compared with the queue's is the endpoint's {@code shards}, and naming another dead-letter queue is a
     * way out too.
     */
    private String deadLetteringRole() {
        return "Its consumer dead-letters to queue " + deadLetterQueue.name()
               + ", in this endpoint's shards (set the count below; or, to change the queue's count, empty "
               + deadLetterQueue.name() + " first with a redrive or purge at its old count; or name another "
               + "deadLetterQueue): ";
    }

    /** The key of a queue's check among the component's: its connection, key prefix, name and shard count. */
    private String key(ShardedQueue checked) {
        return connection + "|" + keyPrefix + "|" + checked.name() + "|" + checked.all().size();
    }

    private QueueGuard join(String key, ShardedQueue checked, String role) {
        QueueGuard guard = component.acquireQueueGuard(key, () -> {
            QueueGuard created = new QueueGuard(client, keyPrefix, checked);
            created.start(timer);
            return created;
        });
        guard.join(endpoint, role);
        return guard;
    }
}
