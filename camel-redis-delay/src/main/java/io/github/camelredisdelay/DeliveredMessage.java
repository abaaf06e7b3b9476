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

import io.github.camelredisdelay.internal.QueueShard;
import org.apache.camel.Exchange;

/**
 * Which stored message an exchange is the delivery of, kept as an exchange property by the consumer. A schedule of the
 * same id onto the same queue from that exchange is a re-delay: it replaces the message whatever {@code onDuplicate}
 * says, so "check again later" loops never lose it.
 *
 * @param msgKey    the key of the hash that holds the message (it names the key prefix, the queue and the shard)
 * @param messageId the message id
 */
record DeliveredMessage(String msgKey, String messageId) {

    private static final String PROPERTY = "CamelRedisDelayDeliveredMessage";

    /** Marks {@code exchange} as the delivery of message {@code messageId} of {@code shard}. */
    static void mark(Exchange exchange, QueueShard shard, String messageId) {
        exchange.setProperty(PROPERTY, new DeliveredMessage(shard.keys().msg(), messageId));
    }

    /** Whether {@code exchange} is the delivery of message {@code messageId} of {@code shard}. */
    static boolean isDeliveryOf(Exchange exchange, QueueShard shard, String messageId) {
        return exchange.getProperty(PROPERTY) instanceof DeliveredMessage delivered
                && delivered.msgKey.equals(shard.keys().msg()) && delivered.messageId.equals(messageId);
    }
}
