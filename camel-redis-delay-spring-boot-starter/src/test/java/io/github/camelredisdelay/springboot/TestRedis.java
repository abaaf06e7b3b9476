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
package io.github.camelredisdelay.springboot;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * A private Redis server as a bean of the test application, from the binary {@code redis.test.binary} chooses
 * ({@code path}, {@code embedded} or {@code valkey}). Spring closes it after Camel has stopped, so no route outlives
 * its server; tests that need a client bean add one with {@link #client(RedisServerProcess)}.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestRedis {

    /** The server, stopped with the application context. */
    @Bean(destroyMethod = "close")
    public RedisServerProcess redisServer() {
        return start(RedisServerOptions.defaults().withAppendOnly(true));
    }

    /** Starts a server of the binary {@code redis.test.binary} chooses, for a test that starts and stops it itself. */
    static RedisServerProcess start(RedisServerOptions options) {
        return RedisServerProcess.start(
                RedisBinary.select(System.getProperty("redis.test.binary", RedisBinary.PATH_CHOICE)), options);
    }

    /** Where bodies delivered by the test routes are collected. */
    @Bean
    public Delivered delivered() {
        return new Delivered();
    }

    /** A client of the server that retries a connection for a few seconds at most, as a RedissonClient bean would. */
    static RedissonClient client(RedisServerProcess server) {
        Config config = new Config();
        config.useSingleServer().setAddress(server.uri()).setRetryAttempts(1).setConnectTimeout(1000).setTimeout(1000);
        return Redisson.create(config);
    }
}
