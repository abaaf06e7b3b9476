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
 * What is stored about a message's failed deliveries, in the {@code fail} hash and the stream field {@code f}:
 * {@code "<failed deliveries>:<last error>"}.
 *
 * @param failedDeliveries how many deliveries failed so far
 * @param lastError        the last one's error, {@code <exception class>: <message>}
 */
public record FailureNote(int failedDeliveries, String lastError) {

    /** The stored text. */
    public String text() {
        return failedDeliveries + ":" + lastError;
    }

    /**
     * @throws IllegalArgumentException when {@code text} is not a failure note
     */
    public static FailureNote parse(String text) {
        int separator = text.indexOf(':');
        if (separator < 0) {
            throw new IllegalArgumentException("failure note without ':': " + text);
        }
        return new FailureNote(Integer.parseInt(text.substring(0, separator)), text.substring(separator + 1));
    }
}
