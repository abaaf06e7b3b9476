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

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Names consumers in a queue's consumer group: host, process id and a random part, so every consumer instance has a
 * name of its own and an operator can tell where a lease is held, then {@code ~} and the consumer's visibility timeout
 * in ms, so that a consumer with a shorter one takes over no lease this one still extends ({@code reclaim.lua}).
 */
public final class ConsumerNames {

    private ConsumerNames() {
    }

    /**
     * @param visibilityTimeoutMs how long a lease of this consumer lasts unless extended
     */
    public static String unique(long visibilityTimeoutMs) {
        return host() + "-" + ProcessHandle.current().pid() + "-"
               + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36) + "~" + visibilityTimeoutMs;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }
}
