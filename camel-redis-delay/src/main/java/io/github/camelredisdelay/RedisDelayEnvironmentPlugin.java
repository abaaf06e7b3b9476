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

import org.apache.camel.CamelContext;
import org.apache.camel.spi.ContextServicePlugin;

/**
 * Adds {@link RedisDelayEnvironmentVariables} to the properties of every CamelContext, when the context is built
 * (before camel-main configures its components). Camel finds it through {@code META-INF/services/org.apache.camel.spi.
 * ContextServicePlugin}, a service any number of jars may provide, not through the one
 * {@code properties-source-factory} Camel takes from the class path, which belongs to the application's own source
 * (camel-microprofile-config's, say). Camel looks for plugins with the context's application class loader, else with
 * the JVM's system class loader; where neither sees this jar, the component adds the source itself
 * ({@link RedisDelayComponent}).
 */
public final class RedisDelayEnvironmentPlugin implements ContextServicePlugin {

    @Override
    public void load(CamelContext camelContext) {
        RedisDelayEnvironmentVariables.addTo(camelContext);
    }
}
