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

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private Redis server shared by the tests of one class (a static field with {@code @RegisterExtension}): started
 * before its first test and stopped after its last, so that it outlives the applications the tests start.
 */
final class ClassRedis implements BeforeAllCallback, AfterAllCallback {

    private RedisServerProcess server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = TestRedis.start(RedisServerOptions.defaults());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    /** The running server. */
    RedisServerProcess server() {
        return server;
    }
}
