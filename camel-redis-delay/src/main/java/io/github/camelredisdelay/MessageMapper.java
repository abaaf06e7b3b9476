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

import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.internal.CorruptEnvelopeException;
import io.github.camelredisdelay.internal.DeadLetters;
import io.github.camelredisdelay.internal.Delivery;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.InspectedMessage;
import io.github.camelredisdelay.internal.LogText;
import io.github.camelredisdelay.internal.UnicodeText;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.NoTypeConversionAvailableException;
import org.apache.camel.StreamCache;
import org.apache.camel.TypeConversionException;
import org.apache.camel.TypeConverter;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps a Camel message to the {@link Envelope} that is stored, and back. Bodies keep their type when they are a
 * {@code String} or {@code byte[]}; enums (by name), numbers and other values whose text is the value itself become
 * {@code String}, a {@code ByteBuffer} its remaining bytes; other bodies become {@code byte[]} through Camel's type
 * converters. Headers pass through the endpoint's {@link HeaderFilterStrategy}, so Camel's own headers are not stored
 * by default; the component's {@code CamelRedisDelay*} headers never are, whatever the filter, and only those the
 * component stores itself are restored, so no instruction of one schedule reaches the next; values of other types than
 * those {@link EnvelopeCodec#isSupportedHeaderValue} accepts are dropped with one WARN per header name. The W3C Trace
 * Context headers {@code traceparent} and {@code tracestate} are stored and restored whatever the filter says, so that
 * a delivery joins the trace of the exchange that scheduled it.
 */
final class MessageMapper {

    private static final Logger LOG = LoggerFactory.getLogger(MessageMapper.class);
    /** Starts the name of every header of the component, in any case, as Camel compares header names. */
    private static final String OWN_HEADERS = "CamelRedisDelay";
    /** Camel headers the component stores itself and restores: dead-letter and migration headers. */
    private static final Set<String> RESTORED_HEADERS
            = Set.of(RedisDelayConstants.ORIGINAL_QUEUE, RedisDelayConstants.LAST_ERROR,
                    RedisDelayConstants.MIGRATED_FROM);
    /** The W3C Trace Context headers Camel's tracers inject before a send and read when a route starts. */
    private static final String TRACEPARENT = "traceparent";
    private static final String TRACESTATE = "tracestate";

    /**
     * What to do with an element of a batch that cannot be stored: marshalling the whole body, as a body's refusal
     * advises, makes one text, which a batch refuses.
     */
    private static final String ELEMENT_ADVICE
            = "convert each element to String or byte[] first (e.g. marshal each to JSON), not the whole body";
    /** What to do with a body of messages given to a schedule, which stores one message. */
    private static final String MESSAGES_BODY_ADVICE
            = "send it with operation=scheduleBatch to store each element as a message, or marshal it into one "
              + "(e.g. marshal().json())";
    /** What to do with a body of messages given as an element of a batch, which is one message. */
    private static final String MESSAGES_ELEMENT_ADVICE
            = "flatten the batch into one list of messages, or marshal the element into one (e.g. to JSON)";

    private final HeaderFilterStrategy headerFilter;
    private final String queue;
    private final Set<String> warnedHeaders = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean warnedUnreadable = new AtomicBoolean();

    MessageMapper(HeaderFilterStrategy headerFilter, String queue) {
        this.headerFilter = headerFilter;
        this.queue = queue;
    }

    /**
     * The body as it is stored: a {@code String} or {@code byte[]} as it is; an enum as its constant's name; a
     * {@code ByteBuffer} as its remaining bytes; a value whose text is the value itself (a number, {@code Boolean},
     * {@code Character}, {@code UUID} or other {@code CharSequence}) as text; anything else converted to bytes by
     * Camel's type converters.
     *
     * @throws IllegalArgumentException when the body has no conversion to bytes, or its conversion failed
     */
    Object storableBody(Exchange exchange, Object body) {
        return storable(exchange, body, "The body",
                "marshal it first (e.g. marshal().json()) or convert it to String or byte[]", MESSAGES_BODY_ADVICE);
    }

    /**
     * An element of a {@code scheduleBatch} body as it is stored, as {@link #storableBody} stores a body.
     *
     * @throws IllegalArgumentException when the element has no conversion to bytes, or its conversion failed, naming
     *                                  its index
     */
    Object storableElement(Exchange exchange, Object element, int index) {
        return storable(exchange, element, "Element at index " + index + " of the scheduleBatch body: a value",
                ELEMENT_ADVICE, MESSAGES_ELEMENT_ADVICE);
    }

    /**
     * @param messagesAdvice what to do instead when the value is a body of messages ({@link BodiesOfMessages}), which
     *                       is no one message: Camel's converters store an empty one as a message of no content and
     *                       fail on most others with "argument type mismatch"; one an application's converter turns
     *                       into bytes is stored as that
     */
    private Object storable(Exchange exchange, Object body, String what, String advice, String messagesAdvice) {
        String kind = BodiesOfMessages.kind(body);
        if (kind != null && BodiesOfMessages.isEmpty(body)) {
            throw notOneMessage(body, what, kind, messagesAdvice, null);
        }
        Object stored;
        try {
            stored = storableValue(exchange, body, what, advice);
        } catch (IllegalArgumentException e) {
            if (kind == null) {
                throw e;
            }
            throw notOneMessage(body, what, kind, messagesAdvice, e);
        }
        if (stored instanceof String text) {
            requireUnicode(text, what + " of type " + body.getClass().getName());
            if (body instanceof Reader) {
                // read as text to be checked, stored as its UTF-8 bytes: not in the exchange's CamelCharsetName, which
                // the delivered exchange does not name
                return text.getBytes(StandardCharsets.UTF_8);
            }
        }
        return stored;
    }

    private IllegalArgumentException notOneMessage(
            Object body, String what, String kind, String messagesAdvice, Exception conversion) {
        return new IllegalArgumentException(
                what + " of type " + body.getClass().getName() + " cannot be stored on queue " + queue + ": it is " + kind
                                            + ", not one message" + (conversion == null
                                                    ? "" : ", and has no conversion to "
                                                           + "byte[]")
                                            + "; " + messagesAdvice + ". Nothing was stored",
                conversion);
    }

    /**
     * Refuses text that UTF-8 cannot store as it is, naming {@code what} holds it: an unpaired surrogate would come
     * back as '?'.
     */
    private void requireUnicode(String text, String what) {
        int unpaired = UnicodeText.unpairedSurrogate(text);
        if (unpaired >= 0) {
            throw new IllegalArgumentException(
                    what + " cannot be stored on queue " + queue + ": it holds an unpaired UTF-16 surrogate at index "
                                               + unpaired + " (half of a character pair, as a substring may cut it),"
                                               + " which would come back as '?'; text is stored as UTF-8");
        }
    }

    private Object storableValue(Exchange exchange, Object body, String what, String advice) {
        if (body == null || body instanceof String || body instanceof byte[]) {
            return body;
        }
        if (body instanceof Enum<?> constant) {
            // its toString() may be text for people, which Camel cannot convert back to the constant
            return constant.name();
        }
        if (body instanceof ByteBuffer buffer) {
            // Camel's converter takes the backing array from its start, bytes before the position included
            return remainingBytes(buffer);
        }
        TypeConverter converter = exchange.getContext().getTypeConverter();
        if (isText(body)) {
            return converter.convertTo(String.class, exchange, body);
        }
        // a stream cache is read from its start, and left at its start for whatever reads it next
        resetIfCached(body);
        try {
            // a Reader's text is checked as a String body's is (storable)
            return body instanceof Reader
                    ? converter.mandatoryConvertTo(String.class, exchange, body)
                    : converter.mandatoryConvertTo(byte[].class, exchange, body);
        } catch (NoTypeConversionAvailableException e) {
            throw new IllegalArgumentException(
                    what + " of type " + body.getClass().getName() + " cannot be stored on queue " + queue
                                               + ": it has no conversion to byte[]; " + advice,
                    e);
        } catch (RuntimeException e) {
            // a conversion that failed this time (a file gone, a stream whose connection broke): Camel wraps what the
            // converter threw
            Throwable failure = e instanceof TypeConversionException && e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException(
                    what + " of type " + body.getClass().getName() + " cannot be stored on queue " + queue
                                               + ": its conversion to byte[] failed: " + failure,
                    e);
        } finally {
            resetIfCached(body);
        }
    }

    private static void resetIfCached(Object body) {
        if (body instanceof StreamCache cache) {
            cache.reset();
        }
    }

    /** The bytes from a buffer's position to its limit, leaving its position where it is. */
    private static byte[] remainingBytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** Whether a value's text is the value itself, so that storing the text loses nothing. */
    private static boolean isText(Object body) {
        return body instanceof CharSequence || body instanceof Number || body instanceof Boolean || body instanceof Character
                || body instanceof UUID;
    }

    /**
     * Sets a delivered message's stored body and headers and the delivery headers on an exchange. The two dead-letter
     * headers are stored by {@link DeadLetters}, and the migration header by {@link LegacyMigration}, and restored
     * although they are Camel headers.
     *
     * @throws CorruptEnvelopeException when the stored envelope cannot be decoded
     */
    void populate(Exchange exchange, Delivery delivery, String queueName) {
        Message message = exchange.getIn();
        restore(exchange, message, delivery.envelope());
        setMetadata(message, delivery.messageId(), queueName, delivery.dueAt(), delivery.scheduledAt(),
                delivery.deliveryCount(),
                delivery.lastError());
    }

    /**
     * Sets a peeked or browsed message's stored body and headers and its metadata on the exchange's message. One this
     * node cannot read (a newer node's envelope format, a damaged record) gets its stored bytes as the body and no
     * stored headers, and a WARN for the first of them: a browse lists it beside the others.
     */
    void populate(Exchange exchange, InspectedMessage inspected) {
        Message message = exchange.getMessage();
        try {
            restore(exchange, message, inspected.envelope());
        } catch (CorruptEnvelopeException e) {
            message.setBody(inspected.envelope());
            (warnedUnreadable.compareAndSet(false, true) ? LOG.atWarn() : LOG.atDebug()).log(
                    "Message {} of queue {} cannot be read by this node ({}): shown with its stored bytes as the body"
                                                                                             + " (warned once per endpoint)",
                    LogText.of(inspected.id()), inspected.queue(), e.getMessage());
        }
        setMetadata(message, inspected.id(), inspected.queue(), inspected.dueAt(), inspected.scheduledAt(),
                inspected.deliveryCount(),
                inspected.failure() == null ? null : inspected.failure().lastError());
        message.setHeader(RedisDelayConstants.STATE, inspected.state());
    }

    private static void setMetadata(
            Message message, String id, String queueName, long dueAt, long scheduledAt,
            int deliveryCount, String lastError) {
        message.setHeader(RedisDelayConstants.MESSAGE_ID, id);
        message.setHeader(RedisDelayConstants.QUEUE, queueName);
        message.setHeader(RedisDelayConstants.SCHEDULED_FOR, dueAt);
        message.setHeader(RedisDelayConstants.SCHEDULED_AT, scheduledAt);
        message.setHeader(RedisDelayConstants.DELIVERY_COUNT, deliveryCount);
        if (lastError != null) {
            message.setHeader(RedisDelayConstants.LAST_ERROR, lastError);
        }
    }

    /**
     * The stored body and the stored headers that pass the filter; of the component's own, only the dead-letter and
     * migration headers, never the header naming the delivery a dead letter was copied from.
     */
    private void restore(Exchange exchange, Message message, byte[] stored) {
        Envelope envelope = EnvelopeCodec.decode(stored);
        message.setBody(envelope.body());
        envelope.headers().forEach((name, value) -> {
            if (isOwn(name)
                    ? RESTORED_HEADERS.contains(name)
                    : isTraceContext(name, value) || !headerFilter.applyFilterToExternalHeaders(name, value, exchange)) {
                message.setHeader(name, value);
            }
        });
    }

    /**
     * The exchange's headers that pass the header filter and have a storable type, and its trace context.
     */
    Map<String, Object> storableHeaders(Exchange exchange) {
        Map<String, Object> stored = new LinkedHashMap<>();
        exchange.getMessage().getHeaders().forEach((name, value) -> {
            if (value == null || isOwn(name)
                    || headerFilter.applyFilterToCamelHeaders(name, value, exchange) && !isTraceContext(name, value)) {
                return;
            }
            if (EnvelopeCodec.isSupportedHeaderValue(value)) {
                requireUnicode(name, "The name of header " + name);
                if (value instanceof String text) {
                    requireUnicode(text, "The value of header " + name);
                }
                stored.put(name, value);
            } else if (warnedHeaders.add(name)) {
                LOG.warn("Header {} of type {} is not stored on queue {}: only {} values are (warned once per header name)",
                        LogText.of(name), value.getClass().getName(), queue, EnvelopeCodec.STORED_HEADER_TYPES);
            }
        });
        return stored;
    }

    /** Removes the component's own headers from a message, all but those named {@code kept} (in any case). */
    static void removeOwnHeaders(Message message, String... kept) {
        message.removeHeaders(OWN_HEADERS + "*", kept);
    }

    private static boolean isOwn(String name) {
        return name.regionMatches(true, 0, OWN_HEADERS, 0, OWN_HEADERS.length());
    }

    /**
     * Whether a header is W3C trace context ({@code traceparent} or {@code tracestate}, as text), which is kept
     * whatever the header filter says: without it the consumer's span would start a trace of its own.
     */
    private static boolean isTraceContext(String name, Object value) {
        return value instanceof String && (TRACEPARENT.equalsIgnoreCase(name) || TRACESTATE.equalsIgnoreCase(name));
    }
}
