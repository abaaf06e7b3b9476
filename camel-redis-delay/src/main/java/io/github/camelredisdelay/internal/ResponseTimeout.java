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
package io.github.camelredisdelay.internal;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How long a Redisson client waits for the reply to one attempt of a command, as its configuration gives it
 * ({@code timeout}): then it gives the attempt up, and sends the command again while its retries last (a command that
 * does not block in Redis), though Redis may still run the attempt it gave up.
 */
public final class ResponseTimeout {

    private static final Logger LOG = LoggerFactory.getLogger(ResponseTimeout.class);
    /** Redisson's default, for a client whose configuration cannot be read. */
    static final Duration REDISSON_DEFAULT = Duration.ofMillis(3000);

    private ResponseTimeout() {
    }

    /** The response timeout of {@code client}; Redisson's default, 3 s, when its configuration cannot be read. */
    public static Duration of(ConnectedClient client) {
        try {
            return Duration.ofMillis(ServerSettings.of(client.config()).getTimeout());
        } catch (RuntimeException e) {
            LOG.debug("The response timeout of Redis client {} cannot be read; taken as Redisson's default, {} ms", client,
                    REDISSON_DEFAULT.toMillis(), e);
            return REDISSON_DEFAULT;
        }
    }
}
