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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.InflightCounts;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.PoisonStep;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.engine.DefaultAsyncProcessorAwaitManager;
import org.apache.camel.spi.AsyncProcessorAwaitManager;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code ProducerTemplate}'s caller of a route whose step after an asynchronous schedule throws an {@code Error} is
 * released by the component through Camel's await manager; the caller registers its wait only once the route went on
 * asynchronously, which the completion thread may overtake (the caller kept off a core a while: a busy machine). A
 * caller whose wait begins after the component handled the {@code Error} is released too, not left waiting until the
 * context stops. The await manager here makes that order certain: its wait begins 300 ms after the component logged the
 * {@code Error}.
 */
@CamelSide
class LateCallerAfterErrorTest extends RedisDelayTestSupport {

    @Test
    void aCallerThatWaitsOnlyAfterTheErrorWasHandledIsStillReleased() throws Exception {
        final CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                PoisonStep.append(from("direct:schedule").routeId("schedule").to("redis-delay:q?delay=60000"),
                        "expression", () -> true);
            }
        });
        try (LogLines logged = LogLines.of(ScheduleContinuation.class)) {
            node.getCamelContextExtension().addContextPlugin(AsyncProcessorAwaitManager.class,
                    new DefaultAsyncProcessorAwaitManager() {
                        @Override
                        public void await(Exchange exchange, CountDownLatch latch) {
                            // the caller begins its wait only once the component has handled the Error, and a while
                            // after (kept off a core between the asynchronous call returning and its wait)
                            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> !logged.lines().isEmpty());
                            try {
                                new CountDownLatch(1).await(300, TimeUnit.MILLISECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            super.await(exchange, latch);
                        }
                    });
            node.start();
            var template = node.createProducerTemplate();
            CompletableFuture<Exchange> call = CompletableFuture.supplyAsync(
                    () -> template.send("direct:schedule", e -> e.getMessage().setBody("m")));

            assertThat(call).as("the caller, released after the component handled the Error")
                    .succeedsWithin(Duration.ofSeconds(10)).satisfies(
                            sent -> assertThat(sent.getException()).isInstanceOf(RejectedExecutionException.class));
            InflightCounts.assertSettledAtZero(node, "schedule");
        }
    }
}
