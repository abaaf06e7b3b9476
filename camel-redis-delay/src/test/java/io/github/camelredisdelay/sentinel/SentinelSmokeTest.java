package io.github.camelredisdelay.sentinel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

/** The component configured with a Redisson Sentinel YAML file schedules, delivers and cancels; no failover. */
class SentinelSmokeTest extends SentinelTestSupport {

    private static final String URI = "redis-delay:smoke";

    @Test
    void scheduleDeliverAndCancelWorkThroughTheSentinels() throws Exception {
        long started = System.nanoTime();
        List<String> delivered = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startNode(new RouteBuilder() {
            @Override
            public void configure() {
                from(URI).process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID,
                        String.class)));
            }
        }).createProducerTemplate();

        schedule(producer, "first", 200);
        schedule(producer, "cancelled", 600);
        Object cancelled = producer.requestBodyAndHeader(URI + "?operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, "cancelled");
        // due after the cancelled one: once it arrives, the cancelled one would have arrived before it
        schedule(producer, "last", 1_000);

        await("the last message delivered").atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("last"));
        assertThat(cancelled).isEqualTo(true);
        assertThat(delivered).containsExactly("first", "last");
        int distinct = (int) delivered.stream().distinct().count();
        ResultsFile.append("sentinel: schedule, deliver, cancel (no failover)", redisVersion(), 2, distinct,
                delivered.size() - distinct, 2 - distinct, Duration.ofNanos(System.nanoTime() - started),
                "cancelled=" + cancelled);
    }

    private static void schedule(ProducerTemplate producer, String id, long delayMillis) {
        producer.sendBodyAndHeaders(URI, "body of " + id,
                Map.of(RedisDelayConstants.MESSAGE_ID, id, RedisDelayConstants.DELAY, delayMillis));
    }
}
