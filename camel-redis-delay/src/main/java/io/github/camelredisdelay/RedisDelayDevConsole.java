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

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.InspectedMessage;
import io.github.camelredisdelay.internal.NewestDeadLetters;
import io.github.camelredisdelay.internal.QueueAdmin;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.github.camelredisdelay.internal.RedissonText;
import org.apache.camel.spi.annotations.DevConsole;
import org.apache.camel.support.console.AbstractDevConsole;

/**
 * Camel dev console {@code redis-delay}: for every redis-delay queue of the CamelContext its statistics, the next due
 * messages, the most overdue ones and the newest dead letters with their last error.
 */
@DevConsole(name = "redis-delay", displayName = "Redis Delay", description = "Statistics of every redis-delay queue")
public class RedisDelayDevConsole extends AbstractDevConsole {

    /** Messages listed per kind and queue. */
    static final int LISTED = 5;

    private static final String QUEUE = "queue";
    private static final String KEY_PREFIX = "keyPrefix";
    private static final String REDIS = "redis";
    /**
     * What tells a queue from another of the same name (another key prefix or Redis): the text shows it as a heading.
     */
    private static final Set<String> HEADING = Set.of(QUEUE, KEY_PREFIX, REDIS);

    /** Runs each listing of a queue on a thread of its own, which a Redis that does not answer may hold a while. */
    private final Executor reader
            = task -> getCamelContext().getExecutorServiceManager().newThread("RedisDelayDevConsole", task).start();

    public RedisDelayDevConsole() {
        super("camel", "redis-delay", "Redis Delay", "Statistics of every redis-delay queue");
    }

    @Override
    protected String doCallText(Map<String, Object> options) {
        StringBuilder text = new StringBuilder();
        for (Map<String, Object> queue : queues()) {
            text.append(String.format("Queue: %s, key prefix %s, Redis %s%n", queue.get(QUEUE), queue.get(KEY_PREFIX),
                    queue.get(REDIS)));
            queue.forEach((name, value) -> {
                if (value instanceof List<?> messages) {
                    text.append(String.format("    %s:%n", name));
                    messages.forEach(message -> text.append(String.format("        %s%n", message)));
                } else if (!HEADING.contains(name)) {
                    text.append(String.format("    %s: %s%n", name, value));
                }
            });
        }
        return text.toString();
    }

    @Override
    protected Map<String, Object> doCallJson(Map<String, Object> options) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("queues", queues());
        return json;
    }

    /** One map per queue with a started endpoint, from the queue's shared statistics. */
    private List<Map<String, Object>> queues() {
        Map<QueueStatistics, RedisDelayEndpoint> byQueue = new IdentityHashMap<>();
        for (var endpoint : getCamelContext().getEndpoints()) {
            if (endpoint instanceof RedisDelayEndpoint delay && delay.isStarted()) {
                // endpoints of a queue share its statistics: show them through one whose shards agrees, if any
                byQueue.merge(delay.statistics(), delay,
                        (first, other) -> first.queueProblem() != null ? other : first);
            }
        }
        List<Map<String, Object>> queues = new ArrayList<>();
        byQueue.forEach((statistics, endpoint) -> queues.add(describe(statistics, endpoint)));
        return queues;
    }

    private Map<String, Object> describe(QueueStatistics statistics, RedisDelayEndpoint endpoint) {
        String problem = endpoint.queueProblem();
        if (problem != null) {
            return failure(statistics, endpoint, problem);
        }
        try {
            QueueAdmin admin = endpoint.admin();
            Map<String, Object> queue = heading(statistics, endpoint);
            // first, and bounded as monitoring reads are: a Redis that stalls is found out at once, and the console of
            // many queues still answers
            queue.putAll(statistics.asMap(statistics.snapshotForMonitoring()));
            long now = System.currentTimeMillis() + statistics.clockOffsetMs();
            // bounded too: the counts are reused for a moment, so a Redis that stalls meanwhile is found out here,
            // not after the client's time-outs
            List<InspectedMessage> browsed
                    = statistics.readForMonitoring("messages", () -> admin.browseEachState(LISTED), reader);
            queue.put("nextDue", browsed.stream().filter(m -> "scheduled".equals(m.state())).limit(LISTED)
                    .map(m -> m.id() + " due in " + (m.dueAt() - now) + " ms").toList());
            queue.put("mostOverdue", browsed.stream().filter(m -> "ready".equals(m.state())).limit(LISTED)
                    .map(m -> m.id() + " overdue by " + Math.max(0, now - m.dueAt()) + " ms").toList());
            NewestDeadLetters deadLetters
                    = statistics.readForMonitoring("dead letters", () -> admin.newestDeadLetters(LISTED), reader);
            // what the list was found among: of a shared or long dead-letter queue, older ones of the queue are not
            queue.put("newestDeadLettersAmong", deadLetters.searched());
            queue.put("newestDeadLetters", deadLetters.listed().stream()
                    .map(m -> m.id() + " dead-lettered " + (now - m.scheduledAt()) + " ms ago: " + lastError(m)).toList());
            return queue;
        } catch (RuntimeException e) {
            return failure(statistics, endpoint,
                    "Redis does not answer: " + RedissonText.words(e));
        }
    }

    private static Map<String, Object> failure(QueueStatistics statistics, RedisDelayEndpoint endpoint, String error) {
        Map<String, Object> failed = heading(statistics, endpoint);
        failed.put("error", error);
        return failed;
    }

    private static Map<String, Object> heading(QueueStatistics statistics, RedisDelayEndpoint endpoint) {
        Map<String, Object> heading = new LinkedHashMap<>();
        heading.put(QUEUE, statistics.queueName());
        heading.put(KEY_PREFIX, endpoint.getConfiguration().getKeyPrefix());
        heading.put(REDIS, endpoint.getConfiguration().redisLocation());
        return heading;
    }

    private static Object lastError(InspectedMessage message) {
        try {
            return EnvelopeCodec.decode(message.envelope()).headers().get(RedisDelayConstants.LAST_ERROR);
        } catch (IllegalArgumentException e) {
            return "unreadable: " + e.getMessage();
        }
    }
}
