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

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.camel.CamelContext;
import org.apache.camel.spi.PropertyConfigurer;

/**
 * The component's configurer, durations read strictly, which keeps the options set on the component by name so that a
 * configuration bean set after them gets them too instead of replacing them: camel-main binds
 * {@code camel.component.redis-delay.configuration=#bean:defaults} after the plain options beside it, wherever it
 * stands in the file. Options set after the bean are set on it directly.
 */
final class ComponentOptionsConfigurer extends StrictOptionsConfigurer {

    private static final String CONFIGURATION = "configuration";

    /** The options set by name, but the configuration bean, in the order they were set; the last value of each. */
    private final Map<String, Object> setByName = new LinkedHashMap<>();

    ComponentOptionsConfigurer(PropertyConfigurer generated) {
        super(generated, target -> "component " + ((RedisDelayComponent) target).name());
    }

    @Override
    public synchronized boolean configure(
            CamelContext camelContext, Object target, String name, Object value, boolean ignoreCase) {
        boolean configured = super.configure(camelContext, target, name, value, ignoreCase);
        if (configured && CONFIGURATION.equalsIgnoreCase(name)) {
            setByName.forEach((option, set) -> super.configure(camelContext, target, option, set, ignoreCase));
        } else if (configured) {
            setByName.remove(name);
            setByName.put(name, value);
        }
        return configured;
    }
}
