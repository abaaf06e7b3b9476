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
package io.github.camelredisdelay.benchmark;

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * Both sides' clients of one Redis address: a CamelContext with the redis-delay component (ours) and a RedissonClient
 * (theirs), each with default settings.
 */
record BenchClients(CamelContext camel, RedissonClient redisson) implements AutoCloseable {

    static BenchClients connect(String uri) {
        RedissonClient redisson = Redisson.create(redissonConfig(uri));
        try {
            return new BenchClients(camelContext(uri), redisson);
        } catch (RuntimeException e) {
            redisson.shutdown();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            camel.close();
        } catch (Exception e) {
            Bench.log("Cannot stop the CamelContext: %s", e);
        } finally {
            redisson.shutdown();
        }
    }

    /** Redisson's defaults, as the component's own client; only the codec differs from Redisson's Kryo default. */
    private static Config redissonConfig(String uri) {
        Config config = new Config();
        config.useSingleServer().setAddress(uri);
        config.setCodec(StringCodec.INSTANCE);
        return config;
    }

    private static CamelContext camelContext(String uri) {
        CamelContext camel = new DefaultCamelContext();
        RedisDelayComponent component = new RedisDelayComponent();
        component.getConfiguration().setAddress(uri);
        camel.addComponent("redis-delay", component);
        camel.getShutdownStrategy().setTimeout(10);
        camel.start();
        // An application's endpoints keep the component's Redis client for its whole life. Without this idle one,
        // every run would start a new client (connections, event loops), while RDelayedQueue's client lives on.
        camel.getEndpoint("redis-delay:bench-client-holder?transferInterval=1h");
        return camel;
    }
}
