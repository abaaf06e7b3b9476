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

import java.util.function.BooleanSupplier;

import org.apache.camel.model.RouteDefinition;

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
}
