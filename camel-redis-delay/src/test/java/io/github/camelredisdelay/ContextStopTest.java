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
import java.util.Collections;
import java.util.List;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

@CamelSide
class ContextStopTest extends RedisDelayTestSupport {

    /**
     * "Well under 1 s": a fixed wait of a second or more would be in each of three runs, so the fastest of them must
     * make it (one run slowed by a busy machine, 941 ms once under a load average of 14, does not fail the test).
     */
    private static final long STOP_BOUND_MS = 800;
    /**
     * No run may wait anywhere near the shutdown timeout (10 s), as a stop that waits for something never coming would.
     */
    private static final long ANY_STOP_BOUND_MS = 5000;

    /**
     * Starts and stops one context first, unmeasured: the first stop of a JVM also loads the classes of the stop path,
     * which on a busy two-core machine alone can take hundreds of milliseconds.
     */
    @BeforeEach
    void warmUp() throws Exception {
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:warm-up").process(exchange -> {
                });
            }
        }).stop();
    }

    @Override
    protected boolean usesSharedClient() {
        // the component's own client is the one it shuts down on stop
        return false;
    }

    @Test
    void contextWithAProducerStopsWellUnderOneSecondRightAfterStart() throws Exception {
        assertStopsWellUnderOneSecond("producer", "direct:a", "redis-delay:q");
    }

    @Test
    void contextWithAConsumerStopsWellUnderOneSecondRightAfterStart() throws Exception {
        assertStopsWellUnderOneSecond("consumer", "redis-delay:q", "direct:delivered");
    }

    private void assertStopsWellUnderOneSecond(String kind, String from, String to) throws Exception {
        List<Long> stops = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from(from).to(to);
                }
            });
            stops.add(timeStop(context));
        }
        System.out.println("[stop] " + kind + " context stop times (ms): " + stops);
        assertThat(Collections.min(stops)).as("fastest of %s", stops).isLessThan(STOP_BOUND_MS);
        assertThat(stops).allSatisfy(ms -> assertThat(ms).isLessThan(ANY_STOP_BOUND_MS));
    }

    private static long timeStop(CamelContext context) {
        long start = System.nanoTime();
        context.stop();
        return (System.nanoTime() - start) / 1_000_000;
    }
}
