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
import org.apache.camel.ProducerTemplate;
import org.apache.camel.main.Main;

/**
 * A camel-main application configured by environment variables whose routes name no redis-delay endpoint: it schedules
 * one message to each of two queues with a producer template, as a dynamic destination would, and prints each outcome
 * ({@code SENT n} or {@code FAILED n <exception>}) and the component's key prefix.
 */
public final class EnvironmentSendMain {

    private EnvironmentSendMain() {
    }

    public static void main(String[] args) throws Exception {
        Main main = new Main();
        main.start();
        ProducerTemplate template = main.getCamelContext().createProducerTemplate();
        for (int n = 1; n <= 2; n++) {
            try {
                template.sendBody("redis-delay:env-send-" + n + "?delay=60000", "hello");
                System.out.println("SENT " + n);
            } catch (Exception e) {
                System.out.println("FAILED " + n + " " + e);
            }
        }
        RedisDelayComponent component = main.getCamelContext().getComponent("redis-delay", RedisDelayComponent.class);
        System.out.println("KEY_PREFIX " + component.getConfiguration().getKeyPrefix());
        main.stop();
        System.exit(0);
    }
}
