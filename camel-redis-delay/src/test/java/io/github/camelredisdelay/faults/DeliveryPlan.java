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

import java.util.concurrent.TimeUnit;

import org.apache.camel.Exchange;

/**
 * What a {@link RecordingProcessor} does with a delivery between noting its start and its end: the work, the outcome,
 * and what it notes besides the id and count. Most fault tests work a fixed time and succeed ({@link #working}); a
 * consumer JVM takes another plan by class name (a public class with a public no-argument constructor).
 */
public interface DeliveryPlan {

    /** Does the exchange's work; the start is noted before, the end after. */
    void work(Exchange exchange) throws Exception;

    /** The failure the exchange ends with after its work, or {@code null} when it succeeds. */
    default Exception failure(Exchange exchange) {
        return null;
    }

    /** What the start entry notes besides the id and the count (no line breaks); empty by default. */
    default String note(Exchange exchange) {
        return "";
    }

    /** Works {@code workMillis} and succeeds. */
    static DeliveryPlan working(long workMillis) {
        return exchange -> {
            if (workMillis > 0) {
                // the simulated work of the exchange, not a wait for a condition
                TimeUnit.MILLISECONDS.sleep(workMillis);
            }
        };
    }

    /** A plan by class name, as a consumer JVM gets it on its command line. */
    static DeliveryPlan named(String className) {
        try {
            return (DeliveryPlan) Class.forName(className).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("No delivery plan " + className, e);
        }
    }
}
