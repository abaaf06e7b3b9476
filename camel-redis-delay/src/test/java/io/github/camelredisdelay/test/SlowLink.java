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

import java.net.URI;
import java.time.Duration;

import io.github.camelredisdelay.embedded.LatencyProxy;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * The test Redis behind a slow link: a {@link LatencyProxy} in front of it and a client through the proxy. The client
 * connects while the link is still fast (Redisson opens its pool at creation, which through a slow link takes seconds);
 * {@link #roundTrip} then slows what travels from there on.
 */
public final class SlowLink implements AutoCloseable {

    private final LatencyProxy proxy;
    private final RedissonClient client;

    private SlowLink(LatencyProxy proxy, RedissonClient client) {
        this.proxy = proxy;
        this.client = client;
    }

    /** A proxy without delay in front of the test Redis, and a client connected through it. */
    public static SlowLink open() {
        LatencyProxy proxy = LatencyProxy.start(URI.create(RedisServerExtension.redisUrl()).getPort(), Duration.ZERO);
        Config config = new Config();
        config.useSingleServer().setAddress(proxy.uri());
        return new SlowLink(proxy, Redisson.create(config));
    }

    /** The client through the link, for the component ({@code redissonClient}). */
    public RedissonClient client() {
        return client;
    }

    /** Makes every round trip through the link take {@code roundTrip} more from now on. */
    public void roundTrip(Duration roundTrip) {
        proxy.oneWay(roundTrip.dividedBy(2));
    }

    @Override
    public void close() {
        client.shutdown();
        proxy.close();
    }
}
