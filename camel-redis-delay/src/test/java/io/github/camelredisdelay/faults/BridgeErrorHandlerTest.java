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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.ConsumerType;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With {@code bridgeErrorHandler=true}, Redis errors of the blocking consumer reach the route's error handler, as they
 * do for other Camel consumers, and a Redis outage does not flood it.
 */
@CamelSide
class BridgeErrorHandlerTest extends FaultTestSupport {

    @ParameterizedTest
    @EnumSource(ConsumerType.class)
    void redisErrorsWhileFetchingReachTheRoutesErrorHandlerABoundedNumberOfTimes(ConsumerType type) throws Exception {
        AtomicInteger handled = new AtomicInteger();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true).process(exchange -> handled.incrementAndGet());
                from("redis-delay:bridged?bridgeErrorHandler=true&pollInterval=200&consumerType=" + type).process(exchange -> {
                });
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
