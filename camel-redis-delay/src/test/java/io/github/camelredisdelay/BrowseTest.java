package io.github.camelredisdelay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.apache.camel.spi.BrowsableEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BrowseTest extends RedisDelayTestSupport {

    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch fetched = new CountDownLatch(1);

    @AfterEach
    void releaseConsumers() {
        release.countDown();
    }

    /** A node whose consumer of orders holds the first message it gets, and dead-letters bodies starting "fail". */
    private CamelContext nodeHoldingOne() throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders?maxMessagesPerPoll=1&maxDeliveries=1").process(e -> {
                    if (e.getMessage().getBody(String.class).startsWith("fail")) {
                        throw new IllegalStateException("shop said no to " + e.getMessage().getBody());
                    }
                    fetched.countDown();
                    release.await();
                });
            }
        });
    }

    @Test
    void browsingListsInFlightReadyAndScheduledMessagesInDueOrder() throws Exception {
        CamelContext node = nodeHoldingOne();
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "held", RedisDelayConstants.MESSAGE_ID, "held");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBodyAndHeader("redis-delay:orders", "ready", RedisDelayConstants.MESSAGE_ID, "ready");
        producer.sendBodyAndHeader("redis-delay:orders?delay=2h", "in 2h", RedisDelayConstants.MESSAGE_ID, "later");
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "in 1h", RedisDelayConstants.MESSAGE_ID, "sooner");

        List<Exchange> browsed = node.getEndpoint("redis-delay:orders", BrowsableEndpoint.class).getExchanges();

        assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID))
                .containsExactly("held", "ready", "sooner", "later");
        assertThat(browsed).extracting(e -> e.getMessage().getHeader(RedisDelayConstants.STATE))
                .containsExactly("inflight", "ready", "scheduled", "scheduled");
        assertThat(browsed.get(2).getMessage().getBody()).isEqualTo("in 1h");
    }

    @Test
    void browsingStopsAtTheBrowseLimitOnEveryShard() throws Exception {
        CamelContext node = startContext();
        ProducerTemplate producer = node.createProducerTemplate();
        IntStream.range(0, 40).forEach(i -> producer.sendBodyAndHeader("redis-delay:orders?shards=3&delay=" + (3_600_000 + i * 1000),
                "m" + i, RedisDelayConstants.MESSAGE_ID, "m" + i));

        BrowsableEndpoint endpoint = node.getEndpoint("redis-delay:orders?shards=3&browseLimit=7", BrowsableEndpoint.class);
        List<Exchange> browsed = endpoint.getExchanges();

        assertThat(browsed).extracting(e -> e.getMessage().getBody()).containsExactly("m0", "m1", "m2", "m3", "m4", "m5", "m6");
        assertThat(endpoint.getBrowseStatus(100).size()).isEqualTo(7);
    }

    @Test
    void devConsoleListsNextDueMostOverdueAndNewestDeadLetters() throws Exception {
        CamelContext node = nodeHoldingOne();
        ProducerTemplate producer = node.createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:orders", "fail-1", RedisDelayConstants.MESSAGE_ID, "gone");
        await().atMost(Duration.ofSeconds(5)).until(() -> "dead".equals(producer.request("redis-delay:orders?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "gone")).getMessage().getHeader(RedisDelayConstants.STATE)));
        producer.sendBodyAndHeader("redis-delay:orders", "held", RedisDelayConstants.MESSAGE_ID, "held");
        await().atMost(Duration.ofSeconds(5)).until(() -> fetched.getCount() == 0);
        producer.sendBodyAndHeader("redis-delay:orders", "waiting", RedisDelayConstants.MESSAGE_ID, "waiting");
        producer.sendBodyAndHeader("redis-delay:orders?delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");

        DevConsole console = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class).resolveDevConsole("redis-delay");
        String text = (String) console.call(DevConsole.MediaType.TEXT);

        assertThat(text).contains("nextDue:").containsPattern("later due in \\d+ ms")
                .contains("mostOverdue:").containsPattern("waiting overdue by \\d+ ms")
                .contains("newestDeadLetters:").containsPattern("gone dead-lettered \\d+ ms ago: java.lang.IllegalStateException: shop said no to fail-1");
    }
}
