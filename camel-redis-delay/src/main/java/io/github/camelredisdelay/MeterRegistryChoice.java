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

import java.util.Map;
import java.util.TreeSet;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import org.apache.camel.spi.Registry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses the MeterRegistry of the Camel registry that the queues' meters go to, as camel-micrometer chooses its own:
 * the bean {@code metricsRegistry}, else the only {@link CompositeMeterRegistry} (Spring Boot's primary one over
 * several backends, say), else the only MeterRegistry. Several with none of these chosen: none, with a warning that
 * names them.
 */
final class MeterRegistryChoice {

    /** The name camel-micrometer looks its registry up by first. */
    static final String REGISTRY_BEAN = "metricsRegistry";

    /** The meters' logger: what is logged about a queue's meters is found in one place. */
    private static final Logger LOG = LoggerFactory.getLogger(MicrometerQueueMeters.class);

    private MeterRegistryChoice() {
    }

    /** The registry for the meters of {@code queue}; null when there is none, or no choice among several (logged). */
    static MeterRegistry of(Registry camelRegistry, String queue) {
        MeterRegistry named = camelRegistry.lookupByNameAndType(REGISTRY_BEAN, MeterRegistry.class);
        if (named != null) {
            return named;
        }
        // a single bean of a type, the primary one under Spring, as the Camel registry finds it
        MeterRegistry composite = camelRegistry.findSingleByType(CompositeMeterRegistry.class);
        if (composite != null) {
            return composite;
        }
        MeterRegistry single = camelRegistry.findSingleByType(MeterRegistry.class);
        if (single != null) {
            return single;
        }
        Map<String, MeterRegistry> found = camelRegistry.findByTypeWithName(MeterRegistry.class);
        if (found != null && found.size() > 1) {
            LOG.warn("Queue '{}' has no meters: the Camel registry holds {} MeterRegistry beans {}, none named '{}' and"
                     + " not exactly one CompositeMeterRegistry. Name the one to use '{}' (as camel-micrometer also"
                     + " looks it up).",
                    queue, found.size(), new TreeSet<>(found.keySet()), REGISTRY_BEAN, REGISTRY_BEAN);
        }
        return null;
    }
}
