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
import org.apache.camel.Processor;
import org.apache.camel.ProducerTemplate;

/**
 * One operation on the queue and the reply it got: a schedule, cancel, reschedule or peek by a producer thread, a
 * route's re-delay of the message it is delivering, or a redrive of dead letters. Filled in by whoever sends it, read
 * after the round.
 */
public final class Operation {

    /** What was sent. */
    public enum Kind {
        SCHEDULE_KEEP,
        SCHEDULE_REPLACE,
        SCHEDULE_FAIL,
        /** A schedule without an id: the component generates one. */
        SCHEDULE_GENERATED,
        /** A route's schedule of the message it is delivering, same id. */
        REDELAY,
        CANCEL,
        RESCHEDULE,
        PEEK,
        /** Dead letters moved back to the queue: all, at most {@link #redriveLimit}, or the one of {@link #id}. */
        REDRIVE;

        boolean schedules() {
            return this == SCHEDULE_KEEP || this == SCHEDULE_REPLACE || this == SCHEDULE_FAIL || this == SCHEDULE_GENERATED
                    || this == REDELAY;
        }
    }

    final Kind kind;
    /** The node it went through: {@code A} or {@code B}. */
    final String node;
    String id;
    String body;
    /** The delay, or with {@link #dueAt} the due time's distance from {@link #start}. */
    long delay;
    /** Whether it gave an absolute due time ({@code CamelRedisDelayDueAt}) rather than a delay. */
    boolean dueAt;
    /**
     * Whether it is an element of a {@code scheduleBatch} ({@link BatchSchedule}), sent and answered with the others.
     */
    boolean inBatch;
    long start;
    long end;
    /** A cancel's or reschedule's answer. */
    Boolean answer;
    Boolean duplicate;
    Long scheduledFor;
    Exception error;
    /** A re-delay's: the body of the delivery it was sent from. */
    String parentBody;
    /** A peek's: the state, body and delivery count it showed. */
    String state;
    Object peekedBody;
    Integer peekedCount;
    /** A redrive's {@code CamelRedisDelayRedriveLimit}, {@code null} for all or by id. */
    Long redriveLimit;
    /** A redrive's answer: how many dead letters it moved. */
    Long moved;

    /** Whether a redrive answered that it moved dead letters. */
    boolean movedAny() {
        return moved != null && moved > 0;
    }

    Operation(Kind kind, String node) {
        this.kind = kind;
        this.node = node;
    }

    /**
     * Sends it to {@code uri} through {@code producer}, the exchange filled by {@code fill} (which may read
     * {@link #start}, set first), and notes when it started and ended and what the reply says ({@link #noteReply}).
     */
    void send(ProducerTemplate producer, String uri, Processor fill) {
        start = System.currentTimeMillis();
        Exchange reply = producer.send(uri, fill);
        end = System.currentTimeMillis();
        noteReply(reply);
    }

    /**
     * Notes what {@code reply}, the exchange it was sent with, says: the error, the generated id, the due time, and the
     * answer its kind gives (a peek's state, body and count; a cancel's or reschedule's answer; a redrive's count; a
     * schedule's {@code Duplicate}).
     */
    void noteReply(Exchange reply) {
        Message message = reply.getMessage();
        error = reply.getException();
        if (kind == Kind.SCHEDULE_GENERATED) {
            id = message.getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        }
        scheduledFor = message.getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        if (kind == Kind.PEEK) {
            state = message.getHeader(RedisDelayConstants.STATE, String.class);
            peekedBody = message.getBody();
            peekedCount = message.getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class);
        } else if (kind == Kind.CANCEL || kind == Kind.RESCHEDULE) {
            answer = message.getBody(Boolean.class);
        } else if (kind == Kind.REDRIVE) {
            moved = error == null ? message.getBody(Long.class) : null;
        } else {
            duplicate = message.getHeader(RedisDelayConstants.DUPLICATE, Boolean.class);
        }
    }

    /** Whether it stored a new version: a schedule that answered {@code Duplicate=false} without an error. */
    boolean stored() {
        return kind.schedules() && error == null && Boolean.FALSE.equals(duplicate);
    }

    @Override
    public String toString() {
        return kind + "(id=" + id + ", body=" + body + ", " + (dueAt ? "dueAt=start+" : "delay=") + delay + ", node="
               + node + (inBatch ? ", in a batch" : "") + ") [" + start + ".." + end + "] -> answer=" + answer + ", duplicate="
               + duplicate
               + ", scheduledFor=" + scheduledFor + (error != null ? ", error=" + error : "")
               + (kind == Kind.PEEK ? ", state=" + state + ", peeked=" + peekedBody + ", count=" + peekedCount : "")
               + (kind == Kind.REDRIVE ? ", limit=" + redriveLimit + ", moved=" + moved : "");
    }
}
