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

/**
 * When a message becomes due: after a delay from Redis' now, or at an absolute time.
 *
 * @param absolute {@code true} when {@code millis} is an epoch time, {@code false} when it is a delay
 * @param millis   a non-negative delay or epoch time in milliseconds
 */
public record DueTime(boolean absolute, long millis) {

    public static DueTime after(long delayMillis) {
        return new DueTime(false, delayMillis);
    }

    public static DueTime at(long epochMillis) {
        return new DueTime(true, epochMillis);
    }
}
