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
package io.github.camelredisdelay.main;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.main.Main;

/**
 * A camel-main application configured by environment variables, and by the property file its argument names, if any: it
 * schedules one message and prints the component's address, key prefix and the delivered body. Exits 0 once delivered,
 * 1 when nothing arrives within 20 s.
 */
public final class EnvironmentConfiguredMain {

    private EnvironmentConfiguredMain() {
    }

    public static void main(String[] args) throws Exception {
        CountDownLatch delivered = new CountDownLatch(1);
        Main main = new Main();
        if (args.length > 0) {
            main.setPropertyPlaceholderLocations("file:" + args[0]);
        }
        main.configure().addRoutesBuilder(new RouteBuilder() {
            @Override
            public void configure() {
                from("timer:once?repeatCount=1").setBody(constant("hello")).to("redis-delay:env-configured");
                from("redis-delay:env-configured").process(e -> {
                    System.out.println("DELIVERED " + e.getMessage().getBody());
                    delivered.countDown();
                });
            }
        });
        main.start();
        RedisDelayComponent component = main.getCamelContext().getComponent("redis-delay", RedisDelayComponent.class);
        System.out.println("ADDRESS " + component.getConfiguration().getAddress());
        System.out.println("KEY_PREFIX " + component.getConfiguration().getKeyPrefix());
        boolean ok = delivered.await(20, TimeUnit.SECONDS);
        main.stop();
        System.exit(ok ? 0 : 1);
    }
}
