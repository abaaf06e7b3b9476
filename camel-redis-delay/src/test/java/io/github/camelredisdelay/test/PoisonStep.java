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
import java.util.List;
import java.util.function.BooleanSupplier;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Message;
import org.apache.camel.model.RouteDefinition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A step of a test route that throws a poison message's {@code StackOverflowError}: a {@code processor}, which calls
 * Camel back as it throws (Camel's after-steps of the exchange are left queued on the thread), or an {@code expression}
 * ({@code setBody}'s), which does not (nothing of the exchange is left queued).
 */
public final class PoisonStep {

    private PoisonStep() {
    }

    /** Appends to {@code route} a step of kind {@code step} that throws whenever {@code poisoned} says so. */
    public static void append(RouteDefinition route, String step, BooleanSupplier poisoned) {
        if (step.equals("processor")) {
            route.process(e -> throwIf(poisoned));
        } else {
            route.setBody(e -> {
                throwIf(poisoned);
                return e.getMessage().getBody();
            });
        }
    }

    private static void throwIf(BooleanSupplier poisoned) {
        if (poisoned.getAsBoolean()) {
            throw new StackOverflowError("poison");
        }
    }

    /**
     * Waits for a message's first delivery and its next one, on a {@code retrySchedule} of 50 ms (well within 5 s,
     * while a 20 s lease is kept alive as long as the exchange runs), which carries the poison's {@code Error} as its
     * last error.
     */
    public static void assertRetriedWithThePoison(List<Message> deliveries) {
        await().atMost(Duration.ofSeconds(10)).until(() -> deliveries.size() >= 1);
        await("the message retried on its retrySchedule").atMost(Duration.ofSeconds(5))
                .until(() -> deliveries.size() >= 2);
        assertThat(deliveries.get(1).getHeader(RedisDelayConstants.LAST_ERROR)).asString().contains("StackOverflowError")
                .contains("poison");
    }
}
