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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.camel.spi.annotations.DevConsole;
import org.apache.camel.support.console.AbstractDevConsole;

/**
 * Camel dev console {@code redis-delay}: the statistics of every redis-delay queue of the CamelContext.
 */
@DevConsole(name = "redis-delay", displayName = "Redis Delay", description = "Statistics of every redis-delay queue")
public class RedisDelayDevConsole extends AbstractDevConsole {

    public RedisDelayDevConsole() {
        super("camel", "redis-delay", "Redis Delay", "Statistics of every redis-delay queue");
    }

    @Override
    protected String doCallText(Map<String, Object> options) {
        StringBuilder text = new StringBuilder();
        for (Map<String, Object> queue : queues()) {
            text.append(String.format("Queue: %s%n", queue.get("queue")));
            queue.forEach((name, value) -> {
                if (!"queue".equals(name)) {
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

    /** One statistics map per started endpoint, keyed by endpoint URI so equal queues show once each. */
    private List<Map<String, Object>> queues() {
        Map<String, Map<String, Object>> byQueue = new LinkedHashMap<>();
        for (var endpoint : getCamelContext().getEndpoints()) {
            if (endpoint instanceof RedisDelayEndpoint delay && delay.isStarted()) {
                String key = delay.getConfiguration().getKeyPrefix() + "|" + delay.getQueueName();
                byQueue.computeIfAbsent(key, k -> safeSnapshot(delay));
            }
        }
        return new ArrayList<>(byQueue.values());
    }

    private static Map<String, Object> safeSnapshot(RedisDelayEndpoint endpoint) {
        try {
            return endpoint.statisticsSnapshot();
        } catch (RuntimeException e) {
            Map<String, Object> failed = new LinkedHashMap<>();
            failed.put("queue", endpoint.getQueueName());
            failed.put("error", "Redis does not answer: " + e.getMessage());
            return failed;
        }
    }
}
