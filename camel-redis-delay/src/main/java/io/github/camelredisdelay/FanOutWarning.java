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

import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.internal.LogText;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says, once per producer, when one part of an exchange a route fanned out (a split, multicast, recipient list or loop)
 * lost its message to another part: every part carries the exchange's message id (a delivered message's, or the one an
 * earlier schedule of the exchange generated), which keeps forwarding idempotent but makes the parts one message, kept
 * out as duplicates or, re-delayed onto their own queue, replacing each other.
 */
final class FanOutWarning {

    private static final Logger LOG = LoggerFactory.getLogger(RedisDelayProducer.class);

    private final String queue;
    private final AtomicBoolean warned = new AtomicBoolean();

    FanOutWarning(String queue) {
        this.queue = queue;
    }

    /**
     * @param keptOut  the schedule stored nothing: the queue holds a message with the id
     * @param replaced the schedule stored its message in place of one stored under the id ({@code onDuplicate=replace})
     * @param redelay  the schedule re-delayed the exchange's own delivery, in place of what was stored under the id
     */
    void afterSchedule(Exchange exchange, String id, boolean keptOut, boolean replaced, boolean redelay) {
        if (!keptOut && !replaced && !redelay) {
            return;
        }
        Part part = Part.of(exchange);
        if (part == null || part.index() == 0 || !warned.compareAndSet(false, true)) {
            return;
        }
        String recipe = "setHeader(\"" + RedisDelayConstants.MESSAGE_ID + "\", simple(\"${header."
                        + RedisDelayConstants.MESSAGE_ID + "}-${exchangeProperty." + part.property() + "}\"))";
        LOG.warn("Message {} on queue {}, scheduled by {} {} of a {} ({}), {}. Every part carries the exchange's {} (a "
                 + "delivered message's, or the one an earlier schedule of the exchange generated), so the parts are one "
                 + "message. Give each part an id of its own, e.g. {}, or remove the header for a new one each (warned "
                 + "once per endpoint)",
                LogText.of(id), queue, part.noun(), part.index(), part.kind(), part.property(),
                keptOut ? "was kept out as a duplicate: the queue holds a message with that id"
                        : redelay ? "replaced the part stored before it: it re-delays the delivered message under its id"
                        : "replaced the message stored before it under that id (onDuplicate=replace)",
                RedisDelayConstants.MESSAGE_ID, recipe);
    }

    /** Which part of a fanned-out exchange this one is: a loop's iteration first, as loops may hold splits. */
    private record Part(String noun, String kind, String property, int index) {

        static Part of(Exchange exchange) {
            Integer index = exchange.getProperty(Exchange.LOOP_INDEX, Integer.class);
            if (index != null) {
                return new Part("iteration", "loop", Exchange.LOOP_INDEX, index);
            }
            index = exchange.getProperty(Exchange.SPLIT_INDEX, Integer.class);
            if (index != null) {
                return new Part("part", "split", Exchange.SPLIT_INDEX, index);
            }
            index = exchange.getProperty(Exchange.MULTICAST_INDEX, Integer.class);
            return index == null ? null : new Part("part", "multicast or recipient list", Exchange.MULTICAST_INDEX, index);
        }
    }
}
