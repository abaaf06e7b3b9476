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
 * What a {@code redis-delay} producer does with an exchange.
 */
public enum RedisDelayOperation {
    /** Store the message and deliver it when it is due. */
    schedule,
    /**
     * Store each element of the body (an Iterable or array) as a message of its own, all with the exchange's headers
     * and due time, in one step per 1000 elements; the body becomes the list of generated message ids.
     */
    scheduleBatch,
    /** Remove a scheduled message by id; the body becomes {@code true} if it was removed. */
    cancel,
    /** Give a scheduled message a new due time; the body becomes {@code true} if it was found. */
    reschedule,
    /** Read the queue's statistics; the body becomes a {@code Map} of them. */
    stats,
    /**
     * Read one message by id, from the queue or else its dead-letter queue, without changing it: the body becomes the
     * stored body, the headers its stored headers and metadata with {@code CamelRedisDelayState}; an unknown id gives a
     * {@code null} body and no state header.
     */
    peek,
    /**
     * Remove every message of the queue, scheduled, ready or in flight; needs header {@code CamelRedisDelayConfirm} set
     * to the queue's name. The body becomes the number removed.
     */
    purge,
    /**
     * Move dead letters of the queue's dead-letter queue back to the queue: the one named by
     * {@code CamelRedisDelayMessageId}, else at most {@code CamelRedisDelayRedriveLimit}, else all; due after the delay
     * (headers or option), with a fresh delivery count. The body becomes the number moved.
     */
    redrive
}
