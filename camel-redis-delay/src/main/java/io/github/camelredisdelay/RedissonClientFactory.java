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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.RuntimeCamelException;
import org.apache.camel.support.ResourceHelper;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;
import org.redisson.config.ConstantDelay;
import org.redisson.config.Protocol;
import org.redisson.config.SingleServerConfig;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Configures the RedissonClient the component owns when no client bean is given.
 */
final class RedissonClientFactory {

    private RedissonClientFactory() {
    }

    /**
     * The key under which clients of equal connection options are shared. It holds a SHA-256 digest of the password,
     * not the password: the key is kept in maps and may be logged, and two passwords must never pass for one.
     */
    static String connectionKey(RedisDelayConfiguration configuration) {
        return String.join("|", configuration.getRedissonConfig() != null
                ? "config=" + configuration.getRedissonConfig() : "address=" + configuration.getAddress(),
                "user=" + configuration.getUsername(),
                "password=" + (configuration.getPassword() == null ? "" : digest(configuration.getPassword())),
                "db=" + configuration.getDatabase());
    }

    private static String digest(String password) {
        try {
            byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(password.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha256);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }

    /** The configuration of the client for {@code configuration}'s connection options. */
    static Config config(CamelContext context, RedisDelayConfiguration configuration) {
        Config config = configuration.getRedissonConfig() != null
                ? loadYaml(context, configuration.getRedissonConfig()) : singleServer(configuration);
        // Redisson's default codec would deserialize any class; every call passes its own codec anyway.
        config.setCodec(StringCodec.INSTANCE);
        // The component stores no Redisson objects in Redis; with references on, Redisson checks every value passed to
        // a script for its annotations by reflection (about 1 µs of client CPU per scheduled or delivered message).
        config.setReferenceEnabled(false);
        // Redisson decodes the reply of a pipelined XREADGROUP, with which consumers acknowledge and read in one round
        // trip, wrongly over RESP3: null when the read found nothing, a failed pipeline when it found entries
        config.setProtocol(Protocol.RESP2);
        // the component creates the client when first used, one attempt at a time (ConnectedClient): a client that
        // connected lazily could hang after a failed first connection
        config.setLazyInitialization(false);
        checkedByRedisson(config);
        return config;
    }

    /**
     * A RedissonClient bean the component can use: one that speaks RESP2, as {@link #config} makes its own clients.
     *
     * @throws IllegalStateException when it speaks RESP3
     */
    static RedissonClient checkedBean(RedissonClient bean) {
        if (bean.getConfig().getProtocol() == Protocol.RESP3) {
            throw new IllegalStateException(
                    "The RedissonClient given to the component speaks RESP3 (protocol: RESP3), over which Redisson "
                                            + "decodes the stream reads of the consumers wrongly: give it a client with "
                                            + "protocol RESP2 (Redisson's default), or an address or redissonConfig "
                                            + "to connect on its own");
        }
        return bean;
    }

    /**
     * Has Redisson build a client from {@code config} without connecting, then shuts it down: what Redisson refuses as
     * it builds one ({@code readMode: SLAVE} without slaves, say) fails the endpoint's start, not every call later.
     */
    private static void checkedByRedisson(Config config) {
        Config unconnected = new Config(config);
        unconnected.setLazyInitialization(true);
        Redisson.create(unconnected).shutdown(0, 0, TimeUnit.MILLISECONDS);
    }

    private static Config singleServer(RedisDelayConfiguration configuration) {
        Config config = new Config();
        // one retry: a producer fails fast while Redis is down, and the consumers and the transfer task retry with
        // their own back-off anyway
        SingleServerConfig server = config.useSingleServer().setAddress(configuration.getAddress())
                .setRetryAttempts(1).setRetryDelay(new ConstantDelay(Duration.ofMillis(200)));
        if (configuration.getUsername() != null) {
            config.setUsername(configuration.getUsername());
        }
        if (configuration.getPassword() != null) {
            config.setPassword(configuration.getPassword());
        }
        if (configuration.getDatabase() != null) {
            server.setDatabase(configuration.getDatabase());
        }
        return config;
    }

    private static Config loadYaml(CamelContext context, String location) {
        String uri = location.contains(":") ? location : "file:" + location;
        Config config;
        try (InputStream in = ResourceHelper.resolveMandatoryResourceAsInputStream(context, uri)) {
            config = Config.fromYAML(in);
        } catch (IOException e) {
            throw new RuntimeCamelException("Cannot read the Redisson configuration " + location + ": " + e.getMessage(), e);
        } catch (YAMLException e) {
            throw UnreadableYaml.of(location, e);
        }
        RedissonTlsSettings.check(config, location);
        return config;
    }
}
