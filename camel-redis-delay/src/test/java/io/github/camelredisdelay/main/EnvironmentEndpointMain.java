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

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.main.Main;

/**
 * A camel-main application configured by environment variables and JVM system properties that makes one redis-delay
 * endpoint without starting it (so it connects nowhere), and prints the outcome ({@code CREATED} or
 * {@code FAILED <exception>}) and the component's address and key prefix. With an argument, the component is a second
 * one, bound under that name (audit-delay, say), and the endpoint is that component's.
 */
public final class EnvironmentEndpointMain {

    private EnvironmentEndpointMain() {
    }

    public static void main(String[] args) throws Exception {
        String name = args.length > 0 ? args[0] : "redis-delay";
        Main main = new Main();
        if (args.length > 0) {
            main.bind(name, new RedisDelayComponent());
        }
        main.start();
        RedisDelayComponent component = main.getCamelContext().getComponent(name, RedisDelayComponent.class);
        try {
            component.createEndpoint(name + ":env-endpoint");
            System.out.println("CREATED");
        } catch (Exception e) {
            System.out.println("FAILED " + e);
        }
        System.out.println("ADDRESS " + component.getConfiguration().getAddress());
        System.out.println("KEY_PREFIX " + component.getConfiguration().getKeyPrefix());
        main.stop();
        System.exit(0);
    }
}
