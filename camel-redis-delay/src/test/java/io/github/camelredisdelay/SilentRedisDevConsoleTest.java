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

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.ProcessSignals;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.console.DevConsole;
import org.apache.camel.console.DevConsoleResolver;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dev console of a context with many queues on a Redis that stopped answering (SIGSTOP): an operator opens it to
 * find out what is wrong, so it must answer within a bounded time whatever the number of queues, saying of each that
 * Redis does not answer, not wait out a read per queue one after another.
 */
@CamelSide
@NeedsRedisProcess
class SilentRedisDevConsoleTest extends RedisDelayTestSupport {

    private static final int QUEUES = 10;

    @Test
    void theConsoleOfManyQueuesAnswersWithinABoundedTimeWhileRedisIsSilent() throws Exception {
        RedisServerProcess server = RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test pauses its private redis-server"));
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                for (int i = 0; i < QUEUES; i++) {
                    from("redis-delay:tenant-" + i).routeId("tenant-" + i).log("${body}");
                }
            }
        });
        node.start();
        DevConsole console = node.getCamelContextExtension().getContextPlugin(DevConsoleResolver.class)
                .resolveDevConsole("redis-delay");
        assertThat((String) console.call(DevConsole.MediaType.TEXT)).contains("tenant-9").doesNotContain("error:");

        ProcessSignals.pause(server);
        try {
            CompletableFuture<String> text
                    = CompletableFuture.supplyAsync(() -> (String) console.call(DevConsole.MediaType.TEXT));
            // a second for the first read Redis leaves unanswered, none for the queues after it: not the client's
            // time-outs (3 s, and once more) per read
            await("the console of " + QUEUES + " queues on a silent Redis").atMost(Duration.ofSeconds(4))
                    .until(text::isDone);
            assertThat(text.join().lines().filter(line -> line.startsWith("Queue: ")))
                    .as("the console's text: %s", text.join()).hasSize(QUEUES);
            assertThat(text.join().lines().filter(line -> line.strip().startsWith("error: Redis does not answer")))
                    .as("the console's text: %s", text.join()).hasSize(QUEUES);
        } finally {
            ProcessSignals.resume(server);
        }
    }
}
