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

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConfiguration;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * The CamelContexts of one test, each with a {@code redis-delay} component that creates its own Redis client from the
 * options the test sets, as a user's application would. {@link #close()} stops them all.
 */
public final class CamelNodes implements AutoCloseable {

    private final List<CamelContext> contexts = new ArrayList<>();

    /** Creates, without starting, a context whose component is configured by {@code options}. */
    public CamelContext create(Consumer<RedisDelayConfiguration> options, RoutesBuilder... routes) throws Exception {
        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(10);
        RedisDelayComponent component = new RedisDelayComponent();
        options.accept(component.getConfiguration());
        context.addComponent("redis-delay", component);
        for (RoutesBuilder route : routes) {
            context.addRoutes(route);
        }
        contexts.add(context);
        return context;
    }

    /** Creates and starts a context like {@link #create}. */
    public CamelContext start(Consumer<RedisDelayConfiguration> options, RoutesBuilder... routes) throws Exception {
        CamelContext context = create(options, routes);
        context.start();
        return context;
    }

    /** Stops every context, the last started first. */
    @Override
    public void close() {
        for (int i = contexts.size() - 1; i >= 0; i--) {
            contexts.get(i).stop();
        }
        contexts.clear();
    }
}
