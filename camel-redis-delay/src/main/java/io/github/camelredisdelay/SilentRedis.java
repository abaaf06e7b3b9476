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

/**
 * Whether a stopping consumer of one connection last found its Redis silent (a read left unanswered for 5 s, or leaving
 * the consumer group unanswered for 2 s) and no read has been answered since. Consumers stop one after another: the
 * first to find out waits, the others of the connection then stop without waiting for Redis again.
 */
final class SilentRedis {

    private volatile boolean silent;

    /** A stopping consumer waited for Redis in vain. */
    void found() {
        silent = true;
    }

    /** Redis answered a read. */
    void answered() {
        if (silent) {
            silent = false;
        }
    }

    boolean isSilent() {
        return silent;
    }
}
