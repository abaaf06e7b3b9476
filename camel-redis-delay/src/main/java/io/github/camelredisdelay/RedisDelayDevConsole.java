package io.github.camelredisdelay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.internal.QueueStatistics;
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

    /** One statistics map per queue with a started endpoint: the queue's shared snapshot. */
    private List<Map<String, Object>> queues() {
        List<Map<String, Object>> queues = new ArrayList<>();
        for (String name : getCamelContext().getComponentNames()) {
            if (getCamelContext().hasComponent(name) instanceof RedisDelayComponent component) {
                component.queueStatistics().forEach(statistics -> queues.add(safeSnapshot(statistics)));
            }
        }
        return queues;
    }

    private static Map<String, Object> safeSnapshot(QueueStatistics statistics) {
        try {
            return statistics.asMap();
        } catch (RuntimeException e) {
            Map<String, Object> failed = new LinkedHashMap<>();
            failed.put("queue", statistics.queueName());
            failed.put("error", "Redis does not answer: " + e.getMessage());
            return failed;
        }
    }
}
