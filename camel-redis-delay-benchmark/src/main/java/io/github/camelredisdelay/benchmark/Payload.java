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
package io.github.camelredisdelay.benchmark;

/**
 * The body of every benchmark message: {@code <seq>|<intended due, epoch ms>|} padded to a fixed size, so both sides
 * store the same bytes and RDelayedQueue, which has no header, still tells its consumer when the message was meant to
 * be due.
 */
final class Payload {

    /** The smallest size that holds the sequence number and the due time. */
    static final int MIN_SIZE = 24;

    private Payload() {
    }

    static String of(int seq, long dueMillis, int size) {
        StringBuilder body = new StringBuilder(Math.max(size, MIN_SIZE));
        body.append(seq).append('|').append(dueMillis).append('|');
        while (body.length() < size) {
            body.append('x');
        }
        return body.toString();
    }

    static int seq(String body) {
        return Integer.parseInt(body, 0, body.indexOf('|'), 10);
    }

    static long due(String body) {
        int first = body.indexOf('|');
        return Long.parseLong(body, first + 1, body.indexOf('|', first + 1), 10);
    }
}
