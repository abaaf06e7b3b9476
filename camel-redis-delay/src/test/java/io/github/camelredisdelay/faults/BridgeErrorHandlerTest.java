package io.github.camelredisdelay.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

/**
 * With {@code bridgeErrorHandler=true}, Redis errors of the blocking consumer reach the route's error handler, as
 * they do for other Camel consumers, and a Redis outage does not flood it.
 */
class BridgeErrorHandlerTest extends FaultTestSupport {

    @Test
    void redisErrorsWhileFetchingReachTheRoutesErrorHandlerABoundedNumberOfTimes() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true).process(exchange -> handled.incrementAndGet());
                from("redis-delay:bridged?bridgeErrorHandler=true").process(exchange -> { });
            }
        });
        RedisServerProcess redisServer = redisProcess();

        redisServer.stop();
        await("the outage reaches the route's error handler").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(() -> handled.get() > 0);
        // the consumer keeps retrying every second or so meanwhile; the handler hears of the outage once
        await().pollDelay(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> true);
        redisServer.restart();

        assertThat(handled.get()).as("error handler calls during one outage").isEqualTo(1);
    }
}
