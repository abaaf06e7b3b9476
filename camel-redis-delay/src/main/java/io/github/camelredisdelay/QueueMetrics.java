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

import io.github.camelredisdelay.internal.QueueEvents;
import io.github.camelredisdelay.internal.QueueStatistics;
import org.apache.camel.CamelContext;

/**
 * Binds a queue's metrics when Micrometer is on the classpath; references no Micrometer type itself, so the component
 * runs without it. {@link MicrometerQueueMeters} and {@link MeterRegistryChoice} hold every Micrometer reference and
 * are loaded only when present.
 */
final class QueueMetrics {

    private static final boolean MICROMETER_PRESENT = present("io.micrometer.core.instrument.MeterRegistry");

    private QueueMetrics() {
    }

    /**
     * The meters of a queue under {@code keyPrefix} in the MeterRegistry of the Camel registry, or
     * {@link QueueEvents#NONE} when Micrometer or a registry is absent; a listener that waits for them when another
     * binding holds them ({@link MicrometerQueueMeters}).
     */
    static QueueEvents bind(CamelContext context, String keyPrefix, QueueStatistics statistics) {
        return MICROMETER_PRESENT ? MicrometerQueueMeters.bind(context, keyPrefix, statistics) : QueueEvents.NONE;
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, QueueMetrics.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
