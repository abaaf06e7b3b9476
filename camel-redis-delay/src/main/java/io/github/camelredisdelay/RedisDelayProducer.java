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

import java.io.InputStream;
import java.io.Reader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

import io.github.camelredisdelay.internal.BatchLimits;
import io.github.camelredisdelay.internal.DueTime;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.Futures;
import io.github.camelredisdelay.internal.HeaderLimitException;
import io.github.camelredisdelay.internal.InspectedMessage;
import io.github.camelredisdelay.internal.LogText;
import io.github.camelredisdelay.internal.MessageIds;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.ScheduleRequest;
import io.github.camelredisdelay.internal.ScheduleResult;
import io.github.camelredisdelay.internal.ShardedQueue;
import org.apache.camel.AsyncCallback;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.StreamCache;
import org.apache.camel.converter.stream.InputStreamCache;
import org.apache.camel.converter.stream.ReaderCache;
import org.apache.camel.support.DefaultAsyncProducer;
import org.apache.camel.support.ObjectHelper;

/**
 * Schedules, cancels and reschedules messages on a queue, and reads its statistics. Every call is one Lua script in
 * Redis, so a failed call changes nothing; Redis errors fail the exchange and the route's error handler decides what
 * happens next. Schedules are asynchronous: concurrent ones share script calls, and none parks a thread.
 */
public class RedisDelayProducer extends DefaultAsyncProducer {

    /** The operations a header may name, as "a, b or c". */
    private static final String OPERATION_NAMES = operationNames();

    private final RedisDelayEndpoint endpoint;
    /**
     * The exchange property that holds the {@link Unconfirmed} ids of a schedule or batch on this queue until Redis
     * confirmed them.
     */
    private final String unconfirmedIdsProperty;
    /**
     * The exchange property that holds the {@link ReadBody} of a schedule or batch on this queue until it is stored.
     */
    private final String readBodyProperty;
    /**
     * The exchange property that holds the {@link ReadBody} of a batch's elements as they are stored, when some can be
     * read only once, until the batch is stored.
     */
    private final String readElementsProperty;
    private final FanOutWarning fanOutWarning;
    private Runnable unregisterHealthCheck;

    public RedisDelayProducer(RedisDelayEndpoint endpoint) {
        super(endpoint);
        this.endpoint = endpoint;
        this.unconfirmedIdsProperty = "CamelRedisDelayUnconfirmedIds:" + endpoint.getQueueName();
        this.readBodyProperty = "CamelRedisDelayReadBody:" + endpoint.getQueueName();
        this.readElementsProperty = "CamelRedisDelayReadElements:" + endpoint.getQueueName();
        this.fanOutWarning = new FanOutWarning(endpoint.getQueueName());
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        if (!endpoint.isStarted() && !endpoint.isStarting()) {
            // an endpoint the application held on to after it stopped (one a removed route used, kept in a field):
            // started again, as Camel starts the one it makes for a URI; the component stops it at its own stop
            endpoint.start();
        }
        unregisterHealthCheck = RedisDelayHealthCheck.registerForProducer(endpoint,
                endpoint.getComponent().isHealthCheckProducerEnabled());
        endpoint.producerStarted();
    }

    @Override
    protected void doStop() throws Exception {
        if (unregisterHealthCheck != null) {
            unregisterHealthCheck.run();
            unregisterHealthCheck = null;
            endpoint.producerStopped();
        }
        super.doStop();
    }

    /**
     * A schedule completes when Redis replies, without a thread waiting for it; the route then continues on one of the
     * component's completion threads, never on the Redis client's I/O thread. The other operations, a schedule with
     * {@code synchronous=true}, and one from a completion thread (which must not wait for another), run here.
     */
    @Override
    public boolean process(Exchange exchange, AsyncCallback callback) {
        try {
            endpoint.startForProducer();
            RedisDelayOperation operation = operation(exchange.getMessage());
            if (operation == RedisDelayOperation.schedule && !endpoint.getConfiguration().isSynchronous()
                    && !RedisDelayComponent.onCompletionThread()) {
                CompletableFuture<Void> checked = endpoint.queueChecked();
                // the endpoint's first schedules may come before its shard count was checked: they wait for it here,
                // and go on on a completion thread, not on the Redis client's I/O thread that answered the check
                CompletionStage<Void> stored = checked.isDone() && !checked.isCompletedExceptionally()
                        ? scheduleChecked(exchange)
                        : checked.thenComposeAsync(answered -> scheduleChecked(exchange),
                                endpoint.getComponent()::runOnCompletionThread);
                endpoint.getComponent().whenCompleteOnCompletionThread(stored,
                        (done, failure) -> continueAfter(exchange, failure, callback));
                return false;
            }
            endpoint.requireUsableQueue();
            process(exchange, operation);
        } catch (Exception e) {
            exchange.setException(e);
        }
        callback.done(true);
        return true;
    }

    /**
     * Continues the route on a completion thread of the component, where the exchanges of one script call continue one
     * after another ({@link RedisDelayComponent#whenCompleteOnCompletionThread}). A failed one continues on a thread of
     * its own: its error handling (Camel's redelivery delay, which sleeps on the thread without
     * {@code asyncDelayedRedelivery}) must not hold up the other exchanges of the call, which all failed together.
     */
    private void continueAfter(Exchange exchange, Throwable failure, AsyncCallback callback) {
        Runnable resume = () -> DeliveryMdc.continueRestoring(() -> ScheduleContinuation.resume(exchange, callback));
        if (failure == null) {
            resume.run();
            return;
        }
        exchange.setException(Futures.unwrap(failure));
        endpoint.getComponent().runOnCompletionThread(resume);
    }

    private void process(Exchange exchange, RedisDelayOperation operation) {
        switch (operation) {
            case schedule -> schedule(exchange);
            case scheduleBatch -> scheduleBatch(exchange);
            case cancel -> cancel(exchange);
            case reschedule -> reschedule(exchange);
            case stats -> exchange.getMessage().setBody(endpoint.statisticsSnapshot());
            case peek -> peek(exchange);
            case purge -> purge(exchange);
            case redrive -> redrive(exchange);
        }
    }

    /** {@link #scheduleAsync}, once the shard count was checked: fails at once when it differs. */
    private CompletionStage<Void> scheduleChecked(Exchange exchange) {
        endpoint.requireUsableQueue();
        return scheduleAsync(exchange);
    }

    /** Stores the exchange's message; the stage completes when Redis replied and the headers are set. */
    private CompletionStage<Void> scheduleAsync(Exchange exchange) {
        Schedule schedule = new Schedule(exchange);
        return schedule.shard.scheduleAsync(schedule.request()).thenAccept(schedule::stored);
    }

    /** Stores the exchange's message, waiting for Redis' reply ({@code synchronous=true}). */
    private void schedule(Exchange exchange) {
        Schedule schedule = new Schedule(exchange);
        schedule.stored(schedule.shard.schedule(schedule.request()));
    }

    /**
     * The envelope of message {@code id}: one whose headers do not fit fails naming the queue, the message, the limit
     * and how to keep such headers out.
     */
    private byte[] envelope(Object body, Map<String, Object> headers, String id) {
        try {
            return EnvelopeCodec.encode(new Envelope(body, headers));
        } catch (HeaderLimitException e) {
            throw new IllegalArgumentException(
                    "Cannot schedule message " + LogText.of(id) + " on queue " + endpoint.getQueueName() + ": " + e.getMessage()
                                               + ". Keep such headers out with the endpoint's headerFilterStrategy, or "
                                               + "remove them before the message is sent to the queue",
                    e);
        }
    }

    /** The message of a schedule operation, as it goes to Redis, and what its outcome sets on the exchange. */
    private final class Schedule {
        private final Exchange exchange;
        private final Message message;
        private final String id;
        private final DueTime due;
        private final byte[] envelope;
        private final QueueShard shard;
        private final OnDuplicate onDuplicate;
        /** Whether the id was generated for this exchange: a message stored under it is this exchange's own. */
        private final boolean generated;
        /** Whether it stores a new version of the message the exchange delivers, in place of the stored one. */
        private final boolean redelay;

        Schedule(Exchange exchange) {
            this.exchange = exchange;
            message = exchange.getMessage();
            String given = messageId(message);
            // a generated id whose schedule failed is used again: Camel's redelivery restores the message, headers and
            // all, but not the exchange's properties
            List<String> unconfirmed = unconfirmedIds(exchange);
            // a retry within the exchange (a doCatch, a loop) keeps the header the failed try set: still the generated id
            boolean ownGenerated = given != null && List.of(given).equals(unconfirmed);
            id = given != null ? given : unconfirmed != null ? unconfirmed.get(0) : MessageIds.next();
            due = dueTime(exchange);
            // the body Camel's redelivery restores: a stream already read, when it could be read only once
            Object body = message.getBody();
            envelope = envelope(storedBody(exchange, body), endpoint.messageMapper().storableHeaders(exchange), id);
            shard = queue().forMessage(id);
            // a re-delay from the message's own delivery always stores the new version: keeping the message in flight
            // would let its acknowledgement remove it
            // a generated id is drawn at random, so a message found under it is one this exchange stored: by a failed
            // try that Camel redelivers, or by this very call, which the client sent again when its reply was late
            // (its response timeout), Redis running both attempts. That copy stands
            generated = given == null || ownGenerated;
            redelay = DeliveredMessage.isDeliveryOf(exchange, shard, id);
            onDuplicate = redelay ? OnDuplicate.replace
                    : generated ? OnDuplicate.keep : endpoint.getConfiguration().getOnDuplicate();
            // before the call: a schedule that fails after Redis stored it (too few replicas, a lost reply) is retried
            // under the same id, which stores no second copy
            message.setHeader(RedisDelayConstants.MESSAGE_ID, id);
            if (generated) {
                exchange.setProperty(unconfirmedIdsProperty, new Unconfirmed(body, List.of(id), Set.of()));
            }
        }

        /**
         * The request, sent to Redis at most once under an id the application gave: a repeat of a call whose reply was
         * late would find this very message, which the exchange could not tell from another's.
         */
        ScheduleRequest request() {
            return new ScheduleRequest(id, envelope, due, onDuplicate, !generated);
        }

        void stored(ScheduleResult result) {
            exchange.removeProperty(unconfirmedIdsProperty);
            exchange.removeProperty(readBodyProperty);
            // a generated id that kept its message kept the copy an earlier try or attempt of this exchange stored
            boolean stored = result.scheduled() || generated;
            if (stored) {
                endpoint.statistics().events().scheduled(1);
            }
            message.setHeader(RedisDelayConstants.DUPLICATE, !stored);
            setScheduledFor(message, result);
            fanOutWarning.afterSchedule(exchange, id, !stored, result.replaced(), redelay);
        }
    }

    /**
     * The body of a schedule as it is stored. A stream that can be read only once (an {@code InputStream} or
     * {@code Reader} that is not stream-cached, as without Camel's stream caching) is {@linkplain #readOnce read once}
     * per exchange, and the message gets a stream cache of it, which the steps after the producer can read.
     */
    private Object storedBody(Exchange exchange, Object body) {
        if (!readableOnce(body)) {
            return endpoint.messageMapper().storableBody(exchange, body);
        }
        byte[] bytes = readOnce(exchange, body, RedisDelayOperation.schedule, readBodyProperty,
                () -> (byte[]) endpoint.messageMapper().storableBody(exchange, body));
        exchange.getMessage().setBody(body instanceof Reader
                ? new ReaderCache(new String(bytes, StandardCharsets.UTF_8))
                : new InputStreamCache(bytes));
        return bytes;
    }

    /**
     * What {@code read} gives of a body that can be read only once, read once per exchange: Camel's redelivery of a
     * failed try restores that very body, already read, so what the first try read is kept with the exchange until it
     * is stored, and so is its failure, as a try again would read on from where it failed.
     *
     * @throws IllegalStateException when an earlier try of the exchange failed reading the body
     */
    @SuppressWarnings("unchecked")
    private <T> T readOnce(Exchange exchange, Object body, RedisDelayOperation operation, String property, Supplier<T> read) {
        ReadBody kept = exchange.getProperty(property, ReadBody.class);
        if (kept == null || kept.body() != body) {
            try {
                kept = new ReadBody(body, read.get(), null);
            } catch (RuntimeException e) {
                exchange.setProperty(property, new ReadBody(body, null, e));
                throw e;
            }
            exchange.setProperty(property, kept);
        }
        if (kept.failure() != null) {
            throw new IllegalStateException(
                    "The body of a " + operation + " on queue " + endpoint.getQueueName() + " could be read only once and "
                                            + "failed while it was read, so it cannot be tried again whole: "
                                            + kept.failure() + ". Nothing was stored",
                    kept.failure());
        }
        return (T) kept.read();
    }

    /** What was read of a body that can be read only once, or why reading it failed, and that body. */
    private record ReadBody(Object body, Object read, RuntimeException failure) {
    }

    /**
     * The ids of this exchange's schedule or batch whose call failed, if its body is still the one they were drawn for
     * (Camel's redelivery restores that very body): after a failure the route handled, a later schedule of another body
     * draws its own.
     */
    private List<String> unconfirmedIds(Exchange exchange) {
        Unconfirmed unconfirmed = unconfirmed(exchange);
        return unconfirmed != null ? unconfirmed.ids() : null;
    }

    /** The {@link Unconfirmed} ids of the exchange, if its body is still the one they were drawn for. */
    private Unconfirmed unconfirmed(Exchange exchange) {
        Unconfirmed unconfirmed = exchange.getProperty(unconfirmedIdsProperty, Unconfirmed.class);
        return unconfirmed != null && unconfirmed.body() == exchange.getMessage().getBody() ? unconfirmed : null;
    }

    /**
     * Generated ids of a schedule or batch whose call failed, the body they were drawn for, and those of them a batch
     * that failed part way already counted as scheduled (they are stored).
     */
    private record Unconfirmed(Object body, List<String> ids, Set<String> counted) {
    }

    /** The refusal of a batch whose body is no body of messages, with {@code advice} on what to send instead. */
    private IllegalArgumentException notABodyOfMessages(Object body, String advice) {
        return new IllegalArgumentException(
                "scheduleBatch on queue " + endpoint.getQueueName() + " takes a body of messages (a Collection, an "
                                            + "array other than byte[], an Iterable or an Iterator), "
                                            + (body == null
                                                    ? "but the message has no body"
                                                    : "not a " + body.getClass().getSimpleName() + " body")
                                            + advice + ". Nothing was stored");
    }

    /**
     * The messages of a batch's body. Text and bytes are one message each: Camel's iteration would make a message of
     * every comma-separated piece of a text (a JSON document, say) or of every byte. A body that may be read only once
     * (an {@code Iterator}, an {@code Iterable} other than a collection) is read into a list kept with the exchange
     * until the batch is stored: Camel's redelivery gives a try that failed the same body back, already read.
     */
    private Iterable<?> batchElements(Exchange exchange) {
        Object body = exchange.getMessage().getBody();
        if (body == null) {
            // most likely a step before found nothing; a batch of no messages is an empty Collection
            throw notABodyOfMessages(null, ": send an empty list for a batch of no messages");
        }
        if (body instanceof String || body instanceof byte[]) {
            throw notABodyOfMessages(body, ", which is one message: send it with operation=schedule, or split it first");
        }
        if (!(body instanceof Iterable || body instanceof Iterator || body.getClass().isArray())) {
            // Camel would iterate a Map's entries and make one message of anything else
            throw notABodyOfMessages(body, body instanceof Map ? ": send its values() or its entrySet()" : "");
        }
        if (body instanceof Collection || body.getClass().isArray()) {
            return ObjectHelper.createIterable(body);
        }
        return readOnce(exchange, body, RedisDelayOperation.scheduleBatch, readBodyProperty, () -> {
            List<Object> elements = new ArrayList<>();
            ObjectHelper.createIterable(body).forEach(elements::add);
            return elements;
        });
    }

    /** Whether a body or element is a stream that can be read only once: not stream-cached. */
    private static boolean readableOnce(Object value) {
        return (value instanceof InputStream || value instanceof Reader) && !(value instanceof StreamCache);
    }

    /**
     * The elements of a batch as they are stored. When some can be read only once (an {@code InputStream} or
     * {@code Reader} that is not stream-cached), they are all {@linkplain #readOnce read once} per exchange: Camel's
     * redelivery of a failed try restores the very elements, those already read included.
     */
    private List<Object> storedElements(Exchange exchange, Iterable<?> elements, MessageMapper mapper) {
        Supplier<List<Object>> convert = () -> {
            List<Object> stored = new ArrayList<>();
            for (Object element : elements) {
                stored.add(mapper.storableElement(exchange, element, stored.size()));
            }
            return stored;
        };
        boolean oneShot = false;
        for (Object element : elements) {
            oneShot |= readableOnce(element);
        }
        return oneShot
                ? readOnce(exchange, exchange.getMessage().getBody(), RedisDelayOperation.scheduleBatch, readElementsProperty,
                        convert)
                : convert.get();
    }

    private void scheduleBatch(Exchange exchange) {
        MessageMapper mapper = endpoint.messageMapper();
        Map<String, Object> headers = mapper.storableHeaders(exchange);
        DueTime due = dueTime(exchange);
        // the ids of a try that failed are used again, element by element (Camel's redelivery restores the body, but
        // not the exchange's properties): a call that failed after Redis stored its messages stores no second copy.
        // The ids are generated, so one already stored is that copy, which stands
        Unconfirmed earlier = unconfirmed(exchange);
        List<String> unconfirmed = earlier != null ? earlier.ids() : null;
        Set<String> counted = earlier != null ? earlier.counted() : Set.of();
        // every element is converted before any is stored: one that cannot be fails the exchange with nothing stored
        List<BatchCall> calls = new ArrayList<>();
        Map<QueueShard, BatchCall> filling = new LinkedHashMap<>();
        List<String> ids = new ArrayList<>();
        for (Object item : storedElements(exchange, batchElements(exchange), mapper)) {
            String id
                    = unconfirmed != null && ids.size() < unconfirmed.size() ? unconfirmed.get(ids.size()) : MessageIds.next();
            QueueShard shard = queue().forMessage(id);
            byte[] envelope = envelope(item, headers, id);
            BatchCall call = filling.get(shard);
            if (call != null && !call.fits(envelope.length)) {
                calls.add(filling.remove(shard));
                call = null;
            }
            if (call == null) {
                call = new BatchCall(shard);
                filling.put(shard, call);
            }
            call.add(new ScheduleRequest(id, envelope, due, OnDuplicate.keep));
            ids.add(id);
        }
        calls.addAll(filling.values());
        Object body = exchange.getMessage().getBody();
        exchange.setProperty(unconfirmedIdsProperty, new Unconfirmed(body, ids, counted));
        ScheduleResult result = null;
        List<String> stored = new ArrayList<>();
        for (BatchCall call : calls) {
            try {
                result = call.store();
            } catch (RuntimeException e) {
                if (stored.isEmpty()) {
                    throw e;
                }
                // the calls before stored their messages, which will be delivered: counted now, once (a redelivery
                // that stores the rest counts only those), and named
                Set<String> nowCounted = new HashSet<>(counted);
                nowCounted.addAll(stored);
                endpoint.statistics().events().scheduled(nowCounted.size() - counted.size());
                exchange.setProperty(unconfirmedIdsProperty, new Unconfirmed(body, ids, Set.copyOf(nowCounted)));
                throw new PartlyStoredBatchException(endpoint.getQueueName(), stored, ids.size(), e);
            }
            call.requests.forEach(request -> stored.add(request.id()));
        }
        exchange.removeProperty(unconfirmedIdsProperty);
        exchange.removeProperty(readBodyProperty);
        exchange.removeProperty(readElementsProperty);
        // once, when every call succeeded: a redelivered batch stores what a failed try did not; what a try that failed
        // part way stored was counted then
        endpoint.statistics().events().scheduled((int) ids.stream().filter(id -> !counted.contains(id)).count());
        Message message = exchange.getMessage();
        message.setBody(ids);
        // the id of a message delivered to the exchange or scheduled before, which no message of the batch has: a
        // cancel or reschedule later in the route would act on that message
        message.removeHeader(RedisDelayConstants.MESSAGE_ID);
        // every element is stored under a generated id: a copy an earlier, failed try of the exchange stored is its own
        message.setHeader(RedisDelayConstants.DUPLICATE, false);
        if (result != null) {
            setScheduledFor(message, result);
        } else {
            // an empty batch stored no due time: not the one of an earlier schedule or delivery of the exchange
            message.removeHeader(RedisDelayConstants.SCHEDULED_FOR);
        }
    }

    /**
     * The messages of a batch that one script call stores: all of one shard (a call stores messages of one hash tag
     * only), within {@link BatchLimits}.
     */
    private final class BatchCall {
        private final QueueShard shard;
        private final List<ScheduleRequest> requests = new ArrayList<>();
        private long bytes;

        BatchCall(QueueShard shard) {
            this.shard = shard;
        }

        void add(ScheduleRequest request) {
            requests.add(request);
            bytes += request.envelope().length;
        }

        /** Whether one more envelope of this size fits in the call: an empty call takes any one. */
        boolean fits(int envelopeBytes) {
            return requests.isEmpty() || requests.size() < BatchLimits.SCHEDULE_BATCH_MESSAGES
                    && bytes + envelopeBytes <= BatchLimits.SCHEDULE_BATCH_BYTES;
        }

        /** Stores the messages; returns the outcome of the last one. */
        ScheduleResult store() {
            List<ScheduleResult> results = shard.scheduleAll(requests);
            ScheduleResult last = null;
            for (int i = 0; i < requests.size(); i++) {
                last = results.get(i).orThrow(shard.name(), requests.get(i).id(), requests.get(i).due());
            }
            return last;
        }
    }

    private void cancel(Exchange exchange) {
        Message message = exchange.getMessage();
        String id = requiredMessageId(message, RedisDelayOperation.cancel);
        boolean cancelled = queue().forMessage(id).cancel(id);
        if (cancelled) {
            endpoint.statistics().events().cancelled();
        }
        message.setBody(cancelled);
        // the due time of an earlier schedule or delivery of the exchange: no cancelled message has one
        message.removeHeader(RedisDelayConstants.SCHEDULED_FOR);
    }

    private void reschedule(Exchange exchange) {
        Message message = exchange.getMessage();
        String id = requiredMessageId(message, RedisDelayOperation.reschedule);
        ScheduleResult result = queue().forMessage(id).reschedule(id, dueTime(exchange));
        message.setBody(result.scheduled());
        setScheduledFor(message, result);
    }

    private void peek(Exchange exchange) {
        Message message = exchange.getMessage();
        String id = requiredMessageId(message, RedisDelayOperation.peek);
        // the exchange's own (of a message delivered to it or peeked at before), which the peeked message (or none)
        // would otherwise seem to carry; the request stays
        MessageMapper.removeOwnHeaders(message, RedisDelayConstants.MESSAGE_ID, RedisDelayConstants.OPERATION);
        InspectedMessage found = endpoint.admin().peek(id);
        if (found == null) {
            message.setBody(null);
        } else {
            endpoint.messageMapper().populate(exchange, found);
        }
    }

    private void purge(Exchange exchange) {
        Message message = exchange.getMessage();
        message.setBody(endpoint.purgeQueue(message.getHeader(RedisDelayConstants.CONFIRM, String.class)));
    }

    private void redrive(Exchange exchange) {
        Message message = exchange.getMessage();
        String id = messageId(message);
        Object limit = message.getHeader(RedisDelayConstants.REDRIVE_LIMIT);
        DueTime due = dueTime(exchange);
        if (id != null && limit != null) {
            // a route fed by a queue carries the delivered message's id: which one was meant cannot be told
            throw new IllegalArgumentException(
                    "redrive on queue " + endpoint.getQueueName() + " got both " + RedisDelayConstants.MESSAGE_ID + "="
                                               + LogText.of(id)
                                               + " (that dead letter only) and " + RedisDelayConstants.REDRIVE_LIMIT + "="
                                               + limit + " (up to that many): remove one of the headers");
        }
        if (id != null) {
            message.setBody(endpoint.admin().redrive(id, due));
            return;
        }
        message.setBody(endpoint.admin().redrive(redriveLimit(limit), due));
    }

    /**
     * The most dead letters a redrive moves: all without the header, else its whole number of at least 1 (an integer
     * type, or its digits as text); anything else is refused rather than rounded or read as a boolean.
     */
    private long redriveLimit(Object header) {
        if (header == null) {
            return Long.MAX_VALUE;
        }
        Long limit = null;
        if (header instanceof Long || header instanceof Integer || header instanceof Short || header instanceof Byte) {
            limit = ((Number) header).longValue();
        } else if (header instanceof BigInteger big && big.bitLength() < Long.SIZE) {
            limit = big.longValue();
        } else if (header instanceof String text && text.strip().matches("-?[0-9]{1,18}")) {
            limit = Long.parseLong(text.strip());
        }
        if (limit == null || limit < 1) {
            throw new IllegalArgumentException(
                    "redrive on queue " + endpoint.getQueueName() + " needs a positive whole number as the limit in header "
                                               + RedisDelayConstants.REDRIVE_LIMIT + ", not " + header + " ("
                                               + header.getClass().getSimpleName() + ")");
        }
        return limit;
    }

    private DueTime dueTime(Exchange exchange) {
        return DueTimes.resolve(exchange.getMessage(), endpoint.getConfiguration().getDelay(), endpoint.getQueueName());
    }

    private static void setScheduledFor(Message message, ScheduleResult result) {
        if (result.dueAt() >= 0) {
            message.setHeader(RedisDelayConstants.SCHEDULED_FOR, result.dueAt());
        } else {
            message.removeHeader(RedisDelayConstants.SCHEDULED_FOR);
        }
    }

    private RedisDelayOperation operation(Message message) {
        Object header = message.getHeader(RedisDelayConstants.OPERATION);
        if (header == null) {
            return endpoint.getConfiguration().getOperation();
        }
        if (header instanceof RedisDelayOperation operation) {
            return operation;
        }
        String name = header.toString().trim();
        for (RedisDelayOperation operation : RedisDelayOperation.values()) {
            if (operation.name().equalsIgnoreCase(name)) {
                return operation;
            }
        }
        throw new IllegalArgumentException(
                "Unknown operation '" + header + "' in header " + RedisDelayConstants.OPERATION
                                           + " for queue " + endpoint.getQueueName() + ": use " + OPERATION_NAMES);
    }

    private static String operationNames() {
        List<String> names = Arrays.stream(RedisDelayOperation.values()).map(Enum::name).toList();
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
    }

    /**
     * The message id the header gives; a collection, array, iterator or map is refused rather than taken by its text
     * ("[order-1, order-2]", which no cancel by an order's id would find).
     */
    private String messageId(Message message) {
        Object value = message.getHeader(RedisDelayConstants.MESSAGE_ID);
        if (value == null) {
            return null;
        }
        String where = "in header " + RedisDelayConstants.MESSAGE_ID + " for queue " + endpoint.getQueueName();
        if (BodiesOfMessages.kind(value) != null || value instanceof Map<?, ?>) {
            throw new IllegalArgumentException(
                    "Invalid message id " + where + ": a value of type " + value.getClass().getName()
                                               + " is not one id; set the header to one value (an element of the list, "
                                               + "say), whose text is the id");
        }
        return MessageIds.requireValid(message.getHeader(RedisDelayConstants.MESSAGE_ID, String.class), where);
    }

    private String requiredMessageId(Message message, RedisDelayOperation operation) {
        String id = messageId(message);
        if (id == null) {
            throw new IllegalArgumentException(
                    operation + " on queue " + endpoint.getQueueName() + " needs the id of the "
                                               + "message in header " + RedisDelayConstants.MESSAGE_ID);
        }
        return id;
    }

    private ShardedQueue queue() {
        return endpoint.queue();
    }
}
