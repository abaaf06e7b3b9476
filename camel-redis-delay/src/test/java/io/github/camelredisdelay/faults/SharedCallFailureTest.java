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

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisOutOfMemoryException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schedules from several exchanges share one script call, which Redis refuses (out of memory): each exchange fails with
 * the refusal, and what one exchange's error handling does to its exception (Camel's error handler adds the exception
 * the exchange caught before as a suppressed one) must not show on the exception of another.
 */
class SharedCallFailureTest extends FaultTestSupport {

    private static final int EXCHANGES = 4;

    @Test
    void anExchangesErrorHandlingDoesNotShowOnTheFailureOfAnotherExchangeOfTheSameCall() throws Exception {
        RedisServerProcess server = redisProcess();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:schedule")
                        // an earlier step failed and was caught: Camel keeps what it caught with the exchange
                        .doTry()
                        .process(e -> {
                            throw new IllegalArgumentException("private to " + e.getMessage().getBody());
                        })
                        .doCatch(IllegalArgumentException.class)
                        .end()
                        .to("redis-delay:shared?delay=1h");
            }
        });
        ProducerTemplate producer = context.createProducerTemplate();
        // the endpoint's first call (its shard check) is over before memory runs out
        producer.sendBody("redis-delay:shared?delay=1h", "warm-up");

        List<CompletableFuture<Exchange>> sent = new ArrayList<>();
        server.command("CONFIG", "SET", "maxmemory", "1");
        try {
            // the first schedule's call waits out the pause; the others queue behind it and leave together after it
            server.command("CLIENT", "PAUSE", "500", "WRITE");
            for (int i = 0; i < EXCHANGES; i++) {
                String body = "order-" + i;
                sent.add(producer.asyncSend("direct:schedule", exchange -> exchange.getMessage().setBody(body)));
            }
            for (int i = 0; i < EXCHANGES; i++) {
                Exchange exchange = sent.get(i).get(20, TimeUnit.SECONDS);
                String own = "private to order-" + i;
                assertThat(exchange.getException()).as("order-%d's failure", i).isInstanceOf(RedisOutOfMemoryException.class);
                assertThat(Arrays.stream(exchange.getException().getSuppressed()).map(Throwable::getMessage).toList())
                        .as("what order-%d's failure shows of the exceptions other exchanges caught", i)
                        .allMatch(own::equals);
            }
        } finally {
            server.command("CONFIG", "SET", "maxmemory", "0");
        }
    }
}
