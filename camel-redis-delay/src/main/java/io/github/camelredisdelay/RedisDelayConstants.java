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

import org.apache.camel.spi.Metadata;

/**
 * Names of the message headers the {@code redis-delay} component reads and sets.
 */
public final class RedisDelayConstants {

    @Metadata(label = "producer",
              description = "Delay before the message is due; overrides the delay option. Milliseconds, a Duration, or a "
                            + "string such as 30m, 1h30m or PT5S. A number of 1000000000000 to 9999999999999 (epoch "
                            + "milliseconds of 2001 to 2286; as a delay, 31.7 to 317 years) is refused as a due time "
                            + "meant for CamelRedisDelayDueAt.",
              javaType = "Object")
    public static final String DELAY = "CamelRedisDelayDelay";

    @Metadata(label = "producer",
              description = "Absolute due time; wins over the delay. Epoch milliseconds, Instant, Date, ZonedDateTime, "
                            + "OffsetDateTime, Calendar, or a string of epoch milliseconds or an ISO-8601 instant. "
                            + "A time in the past makes the message due at once (its ScheduledFor is then Redis' time of "
                            + "the schedule). A number of 1000000000 to 9999999999 or of 1000000000000000 to "
                            + "9999999999999999 (epoch seconds or microseconds of 2001 to 2286) is refused as such.",
              javaType = "Object")
    public static final String DUE_AT = "CamelRedisDelayDueAt";

    @Metadata(description = "The due time Redis stored, in epoch milliseconds of the Redis clock. Set after a schedule "
                            + "or reschedule and on every delivered exchange; removed by a cancel, by a reschedule that "
                            + "answers false and by a schedule that kept a duplicate already ready or in flight.",
              javaType = "long")
    public static final String SCHEDULED_FOR = "CamelRedisDelayScheduledFor";

    @Metadata(description = "Id of the message to schedule, cancel, reschedule, peek at or redrive; generated when absent "
                            + "on schedule (scheduleBatch always generates its messages' ids and removes the header). Always set on delivered "
                            + "exchanges.",
              javaType = "String")
    public static final String MESSAGE_ID = "CamelRedisDelayMessageId";

    @Metadata(label = "producer",
              description = "Set after a schedule: true when a message with this id already existed and this body was not "
                            + "stored (onDuplicate=keep), false when this body was stored; always false after scheduleBatch, which "
                            + "stores every element under a generated id.",
              javaType = "Boolean")
    public static final String DUPLICATE = "CamelRedisDelayDuplicate";

    @Metadata(label = "consumer",
              description = "On messages migrated from a Redisson RDelayedQueue (migrateFrom): the name of that queue.",
              javaType = "String")
    public static final String MIGRATED_FROM = "CamelRedisDelayMigratedFrom";

    @Metadata(label = "producer",
              description = "Overrides the operation option: schedule, scheduleBatch, cancel, reschedule, stats, peek, purge or redrive.",
              javaType = "String")
    public static final String OPERATION = "CamelRedisDelayOperation";

    @Metadata(label = "consumer",
              description = "How often this message has been delivered from its queue, 1 on the first delivery; "
                            + "after operation=peek, the deliveries so far (0 for a dead letter not yet delivered "
                            + "from the dead-letter queue).",
              javaType = "int")
    public static final String DELIVERY_COUNT = "CamelRedisDelayDeliveryCount";

    @Metadata(label = "consumer",
              description = "The queue the message came from; after operation=peek, the queue that holds it "
                            + "(the dead-letter queue for a dead letter).",
              javaType = "String")
    public static final String QUEUE = "CamelRedisDelayQueue";

    @Metadata(label = "consumer", description = "When the message was scheduled, in epoch milliseconds of the Redis clock.",
              javaType = "long")
    public static final String SCHEDULED_AT = "CamelRedisDelayScheduledAt";

    @Metadata(label = "consumer", description = "On dead letters: the queue the message was dead-lettered from.",
              javaType = "String")
    public static final String ORIGINAL_QUEUE = "CamelRedisDelayOriginalQueue";

    @Metadata(label = "consumer",
              description = "On redeliveries and dead letters: the exception class and message of the last failed delivery, "
                            + "as class: message, followed by '; caused by class: message' for each exception it wraps "
                            + "whose message it does not hold already (up to 4); cut after 4,000 characters.",
              javaType = "String")
    public static final String LAST_ERROR = "CamelRedisDelayLastError";

    @Metadata(label = "producer",
              description = "Set by operation=peek when the message exists: scheduled, ready, inflight, or dead (found in "
                            + "the queue's dead-letter queue); and on the exchanges browsing the endpoint lists: scheduled, "
                            + "ready or inflight (the dead letters are listed by browsing the dead-letter queue, where they "
                            + "are ready).",
              javaType = "String")
    public static final String STATE = "CamelRedisDelayState";

    @Metadata(label = "producer",
              description = "For operation=purge: must equal the queue's name, else the purge fails and removes nothing.",
              javaType = "String")
    public static final String CONFIRM = "CamelRedisDelayConfirm";

    @Metadata(label = "producer",
              description = "For operation=redrive without a message id: the most dead letters to move back, a whole number of at least 1 (an integer, or its digits as text); all when absent.",
              javaType = "Long")
    public static final String REDRIVE_LIMIT = "CamelRedisDelayRedriveLimit";

    /**
     * MDC key of the id of the message being delivered, set on the consumer's thread while the delivery runs when the
     * CamelContext uses MDC logging ({@code camel.main.useMdcLogging=true}). Not a header.
     */
    public static final String MDC_MESSAGE_ID = "camel.redisDelay.messageId";

    /**
     * MDC key of the queue of the message being delivered, set like {@link #MDC_MESSAGE_ID}. Not a header.
     */
    public static final String MDC_QUEUE = "camel.redisDelay.queue";

    private RedisDelayConstants() {
    }
}
