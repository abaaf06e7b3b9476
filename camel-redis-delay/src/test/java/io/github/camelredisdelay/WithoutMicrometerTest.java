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

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Micrometer is an optional dependency: with none on the classpath the component schedules, delivers and reports
 * statistics as before. The round trip runs in a class loader of the test classpath without Micrometer's jars.
 */
@ExtendWith(RedisServerExtension.class)
@CamelSide
class WithoutMicrometerTest {

    @Test
    void componentWorksWithoutMicrometerOnTheClasspath() throws Exception {
        URL[] withoutMicrometer = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("micrometer")).map(WithoutMicrometerTest::url).toArray(URL[]::new);
        try (URLClassLoader loader = new URLClassLoader(withoutMicrometer, ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> loader.loadClass("io.micrometer.core.instrument.MeterRegistry"))
                    .isInstanceOf(ClassNotFoundException.class);

            // Camel resolves its services through the thread's context class loader
            ClassLoader before = Thread.currentThread().getContextClassLoader();
            Thread.currentThread().setContextClassLoader(loader);
            Object delivered;
            try {
                delivered = loader.loadClass(RoundTrip.class.getName()).getMethod("run", String.class)
                        .invoke(null, RedisServerExtension.redisUrl());
            } finally {
                Thread.currentThread().setContextClassLoader(before);
            }

            assertThat(delivered).isEqualTo("hello");
        }
    }

    private static URL url(String entry) {
        try {
            return Path.of(entry).toUri().toURL();
        } catch (java.net.MalformedURLException e) {
            throw new IllegalArgumentException(entry, e);
        }
    }

    /** Loaded without Micrometer: schedules a message, receives it and reads the statistics. */
    public static final class RoundTrip {

        private RoundTrip() {
        }

        public static Object run(String redisUrl) throws Exception {
            CamelContext context = new DefaultCamelContext();
            RedisDelayComponent component = new RedisDelayComponent();
            component.getConfiguration().setAddress(redisUrl);
            component.getConfiguration().setKeyPrefix("test:" + UUID.randomUUID().toString().substring(0, 8));
            context.addComponent("redis-delay", component);
            context.start();
            try {
                context.createProducerTemplate().sendBody("redis-delay:greetings?delay=10", "hello");
                ConsumerTemplate consumer = context.createConsumerTemplate();
                Object body = consumer.receiveBody("redis-delay:greetings", 5000);
                context.createProducerTemplate().requestBody("redis-delay:greetings?operation=stats", (Object) null);
                return body;
            } finally {
                context.stop();
            }
        }
    }
}
