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

import java.util.Map;

import io.github.camelredisdelay.internal.LogText;
import org.apache.camel.CamelContext;
import org.slf4j.MDC;

/**
 * The component's MDC: {@link #continueRestoring} for routes continuing on its completion threads, and the keys of one
 * delivery, {@link RedisDelayConstants#MDC_MESSAGE_ID} and {@link RedisDelayConstants#MDC_QUEUE}: set on the delivering
 * thread when the CamelContext uses MDC logging, and put back as they were when the delivery ends, so none stays behind
 * for whatever the thread runs next. The thread waits until the exchange is done; threads the asynchronous routing
 * engine continues it on get the keys from Camel's MDC unit of work when its {@code mdcLoggingKeysPattern} matches them
 * (e.g. {@code camel.redisDelay.*}), and it removes them there when the exchange is done.
 */
final class DeliveryMdc implements AutoCloseable {

    private static final DeliveryMdc NONE = new DeliveryMdc(null, null);

    private final String previousMessageId;
    private final String previousQueue;

    private DeliveryMdc(String previousMessageId, String previousQueue) {
        this.previousMessageId = previousMessageId;
        this.previousQueue = previousQueue;
    }

    /** Sets the keys of the delivery of {@code messageId} from {@code queue} when {@code context} uses MDC logging. */
    static DeliveryMdc open(CamelContext context, String messageId, String queue) {
        if (!usesMdcLogging(context)) {
            return NONE;
        }
        DeliveryMdc mdc = new DeliveryMdc(MDC.get(RedisDelayConstants.MDC_MESSAGE_ID), MDC.get(RedisDelayConstants.MDC_QUEUE));
        MDC.put(RedisDelayConstants.MDC_MESSAGE_ID, LogText.of(messageId));
        MDC.put(RedisDelayConstants.MDC_QUEUE, queue);
        return mdc;
    }

    /**
     * Whether the context uses Camel's MDC logging (deprecated since Camel 4.19 in favour of camel-mdc, which puts
     * chosen headers such as {@code CamelRedisDelayMessageId} into the MDC itself and needs nothing from here).
     */
    @SuppressWarnings("deprecation")
    private static boolean usesMdcLogging(CamelContext context) {
        return Boolean.TRUE.equals(context.isUseMDCLogging());
    }

    /** Puts the keys back as they were before {@link #open}. */
    @Override
    public void close() {
        if (this != NONE) {
            restore(RedisDelayConstants.MDC_MESSAGE_ID, previousMessageId);
            restore(RedisDelayConstants.MDC_QUEUE, previousQueue);
        }
    }

    private static void restore(String key, String previous) {
        if (previous == null) {
            MDC.remove(key);
        } else {
            MDC.put(key, previous);
        }
    }

    /**
     * Runs {@code continuation}, then puts the thread's MDC back as it was before. With MDC logging, Camel brings the
     * keys its {@code mdcLoggingKeysPattern} matches (such as a delivery's {@code camel.redisDelay.*}) to the thread a
     * route continues on, but leaves them there when the exchange moves on to yet another thread; without this, the
     * next exchange on a completion thread would log with another delivery's keys (MdcLoggingTest).
     */
    static void continueRestoring(Runnable continuation) {
        Map<String, String> before = MDC.getCopyOfContextMap();
        try {
            continuation.run();
        } finally {
            if (before == null) {
                MDC.clear();
            } else {
                MDC.setContextMap(before);
            }
        }
    }
}
