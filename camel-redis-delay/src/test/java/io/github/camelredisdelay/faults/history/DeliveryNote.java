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
package io.github.camelredisdelay.faults.history;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.Message;

/**
 * What a history consumer notes when a delivery starts, besides the body (history consumers note deliveries under their
 * bodies, which name the version) and the count (see
 * {@link io.github.camelredisdelay.faults.DeliveryLog.Entry#note()}): the message id, the due time, the time it was
 * scheduled and the last error the delivery carries, and for a dead letter its original queue. Tab-separated, the last
 * error last.
 */
record DeliveryNote(String id, Long scheduledFor, Long scheduledAt, String originalQueue, String lastError) {

    static DeliveryNote of(Exchange exchange) {
        Message message = exchange.getMessage();
        return new DeliveryNote(
                message.getHeader(RedisDelayConstants.MESSAGE_ID, String.class),
                message.getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class),
                message.getHeader(RedisDelayConstants.SCHEDULED_AT, Long.class),
                message.getHeader(RedisDelayConstants.ORIGINAL_QUEUE, String.class),
                message.getHeader(RedisDelayConstants.LAST_ERROR, String.class));
    }

    String encode() {
        return id + "\t" + scheduledFor + "\t" + scheduledAt + "\t" + originalQueue + "\t"
               + (lastError == null ? "null" : lastError.replaceAll("\\s+", " "));
    }

    static DeliveryNote decode(String text) {
        String[] parts = text.split("\t", 5);
        return new DeliveryNote(parts[0], time(parts[1]), time(parts[2]), orNull(parts[3]), orNull(parts[4]));
    }

    private static Long time(String text) {
        return text.equals("null") ? null : Long.valueOf(text);
    }

    private static String orNull(String text) {
        return text.equals("null") ? null : text;
    }
}
