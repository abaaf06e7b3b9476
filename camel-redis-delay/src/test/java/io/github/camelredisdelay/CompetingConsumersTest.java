package io.github.camelredisdelay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

class CompetingConsumersTest extends RedisDelayTestSupport {

    private RouteBuilder consumingInto(List<String> into) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?concurrentConsumers=2").process(e -> into.add(e.getMessage().getBody(String.class)));
            }
        };
    }

    @Test
    void twoContextsOnOneQueueReceiveEachMessageExactlyOnce() throws Exception {
        List<String> nodeA = new CopyOnWriteArrayList<>();
        List<String> nodeB = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(consumingInto(nodeA)).createProducerTemplate();
        startContext(consumingInto(nodeB));

        for (int i = 0; i < 300; i++) {
            producer.sendBody("redis-delay:orders?delay=" + (i % 10) * 50, "m" + i);
        }

        await().atMost(Duration.ofSeconds(20)).until(() -> nodeA.size() + nodeB.size() >= 300);
        List<String> all = new CopyOnWriteArrayList<>(nodeA);
        all.addAll(nodeB);
        assertThat(all).hasSize(300).doesNotHaveDuplicates();
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(() -> true);
        assertThat(nodeA.size() + nodeB.size()).as("no late duplicates").isEqualTo(300);
        assertThat(nodeA).as("node A took part").isNotEmpty();
        assertThat(nodeB).as("node B took part").isNotEmpty();
    }
}
