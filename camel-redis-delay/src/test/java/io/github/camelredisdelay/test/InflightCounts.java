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
package io.github.camelredisdelay.test;

import java.time.Duration;

import org.apache.camel.CamelContext;
import org.apache.camel.spi.InflightRepository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Camel's inflight counts of a test's CamelContext. */
public final class InflightCounts {

    private InflightCounts() {
    }

    /**
     * Waits (at most 3 s) until the last exchange is done, then asserts that the context and each of {@code routeIds}
     * count none in flight: not one left over, and none counted out twice (a count below zero).
     */
    public static void assertSettledAtZero(CamelContext context, String... routeIds) {
        InflightRepository inflight = context.getInflightRepository();
        await("the last exchange done").atMost(Duration.ofSeconds(3)).until(() -> inflight.size() <= 0);
        assertThat(inflight.size()).as("exchanges in flight").isZero();
        for (String routeId : routeIds) {
            assertThat(inflight.size(routeId)).as("exchanges in flight in route " + routeId).isZero();
        }
    }
}
