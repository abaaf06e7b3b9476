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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.FailureNote;
import io.github.camelredisdelay.internal.Refusal;
import io.github.camelredisdelay.internal.Wire;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.api.RScript;
import org.redisson.api.stream.StreamAddArgs;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class RetryAndDeadLetterTest extends RedisDelayTestSupport {

    private final List<Message> attempts = new CopyOnWriteArrayList<>();
    private final List<Message> deadLetters = new CopyOnWriteArrayList<>();

    @Test
    void failedExchangeIsRedeliveredWithIncreasingCountUntilItSucceeds() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=100,300&maxDeliveries=5").process(e -> {
                    attempts.add(e.getMessage().copy());
                    if (attempts.size() < 3) {
                        throw new IllegalStateException("callback refused " + attempts.size());
                    }
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 3);
        assertThat(attempts).extracting(m -> m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).containsExactly(1, 2, 3);
        assertThat(attempts.get(2).getHeader(RedisDelayConstants.LAST_ERROR))
                .isEqualTo("java.lang.IllegalStateException: callback refused 2");
        long firstRetryGap = attempts.get(1).getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class)
                             - attempts.get(0).getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
        assertThat(firstRetryGap).isGreaterThanOrEqualTo(100);
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty()
                && redis().getMap(key("jobs", "fail")).isEmpty());
    }

    @Test
    void exhaustedMessageGoesToTheDeadLetterQueueWithItsOriginAndLastError() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=50&maxDeliveries=3").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new IllegalArgumentException("bad job");
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "job", "tenant", "acme");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(attempts).hasSize(3);
        Message dead = deadLetters.get(0);
        assertThat(dead.getBody()).isEqualTo("job");
        assertThat(dead.getHeader("tenant")).isEqualTo("acme");
        assertThat(dead.getHeader(RedisDelayConstants.ORIGINAL_QUEUE)).isEqualTo("jobs");
        assertThat(dead.getHeader(RedisDelayConstants.LAST_ERROR)).isEqualTo("java.lang.IllegalArgumentException: bad job");
        assertThat(dead.getHeaders()).as("the component's note of the delivery a dead letter was copied from")
                .doesNotContainKey("CamelRedisDelayDeadLetterOf");
        assertThat(dead.getHeader(RedisDelayConstants.MESSAGE_ID))
                .isEqualTo(attempts.get(0).getHeader(RedisDelayConstants.MESSAGE_ID));
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getMap(key("jobs", "msg")).isEmpty());
    }

    /**
     * An error handler that handles the route's exception and marks the exchange rollback-only, to have the queue retry
     * it without Camel logging the failure: the redelivery and the dead letter name the exception it handled. Without a
     * transaction, rollback-only-last (which would roll back the innermost transaction only) fails the delivery alike.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void exchangeAnErrorHandlerMarkedRollbackOnlyIsDeadLetteredWithTheErrorItHandled(boolean onlyLast) throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                var handled = onException(IllegalStateException.class).handled(true);
                if (onlyLast) {
                    handled.markRollbackOnlyLast();
                } else {
                    handled.markRollbackOnly();
                }
                from("redis-delay:jobs?retrySchedule=50&maxDeliveries=2").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new IllegalStateException("payment gateway down");
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(attempts).hasSize(2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.RollbackExchangeException: ")
                .contains("java.lang.IllegalStateException", "payment gateway down");
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.RollbackExchangeException: ")
                .contains("java.lang.IllegalStateException", "payment gateway down");
    }

    /**
     * A route whose failure wraps another (a bean that called a ProducerTemplate gets a CamelExecutionException, whose
     * message names only the exchange): the last error names the exception underneath too.
     */
    @Test
    void theLastErrorOfAWrappedFailureNamesTheExceptionItWraps() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=50&maxDeliveries=2").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new CamelExecutionException(
                            "Exception occurred during execution on the exchange", e,
                            new IllegalStateException("payment gateway down"));
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.CamelExecutionException: Exception occurred during execution")
                .endsWith("; caused by java.lang.IllegalStateException: payment gateway down");
    }

    /**
     * A wrapper whose message already holds its cause's (as many frameworks write them) is not one of the four wrapped
     * exceptions the last error names: the four below it are.
     */
    @Test
    void theLastErrorNamesFourWrappedExceptionsBesidesOneWhoseMessageItHoldsAlready() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?maxDeliveries=1").process(e -> {
                    throw new IllegalStateException(
                            "callback failed: read timed out",
                            new IllegalStateException(
                                    "read timed out", new IllegalStateException(
                                            "pool exhausted",
                                            new IllegalStateException(
                                                    "connection refused", new IllegalStateException(
                                                            "partner down",
                                                            new IllegalStateException("maintenance window"))))));
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .isEqualTo("java.lang.IllegalStateException: callback failed: read timed out"
                           + "; caused by java.lang.IllegalStateException: pool exhausted"
                           + "; caused by java.lang.IllegalStateException: connection refused"
                           + "; caused by java.lang.IllegalStateException: partner down"
                           + "; caused by java.lang.IllegalStateException: maintenance window");
    }

    /**
     * An exception that builds its message from state that is gone by the time the message is read (a closed session,
     * say), so reading it throws, fails the exchange itself or as the cause of its failure: the delivery is retried on
     * the retry schedule, not kept leased for ever, and its last error names the exception's class.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aFailureWhoseMessageCannotBeReadIsRetriedNamingItsClass(boolean asCause) throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s").process(e -> {
                    attempts.add(e.getMessage().copy());
                    if (attempts.size() == 1) {
                        throw asCause
                                ? new IllegalStateException("callback failed", new UnreadableMessageException())
                                : new UnreadableMessageException();
                    }
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        // retrySchedule=50 ms: well within 5 s; the 20 s lease must not be what brings it back
        await("retried on its retrySchedule").atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .contains(UnreadableMessageException.class.getName());
    }

    /**
     * A route that handles such an exception ({@code doCatch}) and marks the exchange rollback-only, to have the queue
     * retry it: the delivery is retried on the retry schedule, not kept leased for ever, and its last error names the
     * handled exception's class.
     */
    @Test
    void aRollbackAfterHandlingAFailureWhoseMessageCannotBeReadIsRetriedNamingItsClass() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?retrySchedule=50&visibilityTimeout=20s")
                        .process(e -> attempts.add(e.getMessage().copy()))
                        .doTry().process(e -> {
                            if (attempts.size() == 1) {
                                throw new UnreadableMessageException();
                            }
                        }).doCatch(UnreadableMessageException.class).markRollbackOnly().end();
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await("retried on its retrySchedule").atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 2);
        assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .startsWith("org.apache.camel.RollbackExchangeException: ")
                .contains(UnreadableMessageException.class.getName());
    }

    /**
     * An exception whose message is huge (a validator's list of every violation in a large document): the last error is
     * stored with the message until its next delivery, in the dead letter after that, and logged with each failure, so
     * it is cut after 4,000 characters, saying how many more there were.
     */
    @Test
    void aHugeExceptionMessageIsStoredAsALastErrorCutAfterFourThousandCharacters() throws Exception {
        String violations = "line 1: value out of range; ".repeat(40_000);
        startFailingConsumers(violations, "redis-delay:jobs?retrySchedule=1h");

        startContext().createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID,
                "job-1");

        var failureNotes = redis().getMap(key("jobs", "fail"));
        await().atMost(Duration.ofSeconds(5)).until(() -> failureNotes.containsKey("job-1"));
        String lastError = FailureNote.parse((String) failureNotes.get("job-1")).lastError();
        assertThat(lastError).startsWith("java.lang.IllegalStateException: line 1: value out of range; ")
                .endsWith("... (" + (violations.length() + "java.lang.IllegalStateException: ".length() - 4_000)
                          + " more characters)");
        assertThat(lastError.length()).isLessThan(4_100);
    }

    /** An exception whose message cannot be read: reading it throws. */
    private static final class UnreadableMessageException extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("the session this message is read from is closed");
        }
    }

    @Test
    void exchangeHandledByTheRoutesErrorHandlerCountsAsSuccess() throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                onException(IllegalStateException.class).handled(true);
                from("redis-delay:jobs?retrySchedule=50").process(e -> {
                    attempts.add(e.getMessage().copy());
                    throw new IllegalStateException("handled");
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 1 && redis().getMap(key("jobs", "msg")).isEmpty());
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(attempts).hasSize(1);
    }

    /**
     * Camel's dead letter channel handles what it dead-letters, so the message is acknowledged: by default (Camel's
     * deadLetterHandleNewException) also when sending it to the dead letter endpoint failed, and then it is gone; with
     * deadLetterHandleNewException(false) that failure fails the exchange, and the queue retries the message.
     */
    @ParameterizedTest
    @ValueSource(booleans = { true, false })
    void aMessageCamelsDeadLetterChannelFailedToDeadLetterIsAcknowledgedUnlessItLeavesTheNewExceptionUnhandled(
            boolean handleNewException)
            throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(deadLetterChannel("direct:parked").deadLetterHandleNewException(handleNewException));
                from("direct:parked").process(e -> {
                    throw new IllegalStateException("parking lot down");
                });
                from("redis-delay:jobs?retrySchedule=50").process(e -> {
                    attempts.add(e.getMessage().copy());
                    if (attempts.size() == 1) {
                        throw new IllegalStateException("callback refused");
                    }
                });
            }
        }).createProducerTemplate();

        producer.sendBody("redis-delay:jobs", "job");

        if (handleNewException) {
            await().atMost(Duration.ofSeconds(5))
                    .until(() -> attempts.size() == 1 && redis().getMap(key("jobs", "msg")).isEmpty());
            await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
            assertThat(attempts).as("acknowledged: never delivered again").hasSize(1);
        } else {
            await("retried on its retrySchedule").atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 2);
            assertThat(attempts.get(1).getHeader(RedisDelayConstants.LAST_ERROR, String.class)).contains("parking lot down");
        }
    }

    @Test
    void aDeliveryTheHeaderFilterStrategyFailsOnIsRetriedAndTheConsumerGoesOn() throws Exception {
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?headerFilterStrategy=#refusing&retrySchedule=50&maxDeliveries=2")
                        .process(e -> attempts.add(e.getMessage().copy()));
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });
        node.getRegistry().bind("refusing", new DefaultHeaderFilterStrategy() {
            @Override
            public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
                if ("poison".equals(name)) {
                    throw new IllegalStateException("refused header poison");
                }
                return super.applyFilterToExternalHeaders(name, value, exchange);
            }
        });
        node.start();
        var producer = node.createProducerTemplate();

        producer.sendBodyAndHeader("redis-delay:jobs", "bad", "poison", "yes");
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        producer.sendBody("redis-delay:jobs", "good");

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.size() == 1);
        assertThat(attempts.get(0).getBody()).isEqualTo("good");
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .contains("refused header poison");
    }

    @Test
    void corruptStoredMessageGoesToTheDeadLetterQueueInsteadOfCrashing() throws Exception {
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").process(e -> attempts.add(e.getMessage().copy()));
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });
        // a record whose envelope (format version 1) has a body kind 9 that no version writes, planted behind the
        // component's back
        dueSet("jobs").plant("corrupt", 0);
        byte[] record = recordOf("\u0001\u0009payload".getBytes(StandardCharsets.UTF_8));
        redis().getMap(key("jobs", "msg"), ByteArrayCodec.INSTANCE).put("corrupt".getBytes(StandardCharsets.UTF_8), record);
        var producer = startContext().createProducerTemplate();
        producer.sendBody("redis-delay:jobs", "fine");

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1 && attempts.size() == 1);
        Message dead = deadLetters.get(0);
        assertThat(dead.getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo("corrupt");
        assertThat(dead.getHeader(RedisDelayConstants.LAST_ERROR, String.class)).contains("unknown body kind 9");
        assertThat(dead.getBody(byte[].class)).startsWith(1, 9);
    }

    @Test
    void aReceiveNoWaitBehindManyCorruptMessagesLeavesMostOfThemToLaterReceives() throws Exception {
        ConsumerTemplate receiver = startContext().createConsumerTemplate();
        // its consumer group is made: the entries below are new to it
        assertThat(receiver.receiveNoWait("redis-delay:jobs")).isNull();
        // ready messages whose envelope (format version 1) has a body kind 9 that no version writes, written behind the
        // component's back: each read of one sends it to the dead-letter queue and finds nothing for the caller
        int poison = 5000;
        byte[] record = recordOf("\u0001\u0009payload".getBytes(StandardCharsets.UTF_8));
        redis().getScript(ByteArrayCodec.INSTANCE).eval(RScript.Mode.READ_WRITE,
                "for n = 1, tonumber(ARGV[1]) do local id = 'poison-' .. n; redis.call('HSET', KEYS[2], id, ARGV[2]); "
                                                                                 + "redis.call('XADD', KEYS[1], '*', 'i', id, 'r', ARGV[2]) end return 1",
                RScript.ReturnType.LONG, List.<Object>of(key("jobs", "ready"), key("jobs", "msg")),
                String.valueOf(poison).getBytes(StandardCharsets.UTF_8), record);

        long asked = System.nanoTime();
        assertThat(receiver.receiveNoWait("redis-delay:jobs")).isNull();
        long tookMs = (System.nanoTime() - asked) / 1_000_000;

        assertThat(redis().getStream(key("jobs", "ready")).size())
                .as("poison messages left to later receives by a receiveNoWait that took %d ms", tookMs).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = { "xx", "" })
    void aStreamEntryThatCannotBeReadIsDeadLetteredWithoutRemovingTheMessageStoredUnderItsIdMeanwhile(String record)
            throws Exception {
        var producer = startContext().createProducerTemplate();
        // a replacement stored under the id while an entry of it that cannot be read waits in the ready stream
        producer.sendBodyAndHeader("redis-delay:jobs?delay=1h", "replacement", RedisDelayConstants.MESSAGE_ID, "job-1");
        Map<byte[], byte[]> fields = new java.util.LinkedHashMap<>();
        fields.put(Wire.FIELD_ID.getBytes(StandardCharsets.UTF_8), "job-1".getBytes(StandardCharsets.UTF_8));
        if (!record.isEmpty()) {
            fields.put(Wire.FIELD_RECORD.getBytes(StandardCharsets.UTF_8), record.getBytes(StandardCharsets.UTF_8));
        }
        redis().<byte[], byte[]>getStream(key("jobs", "ready"), ByteArrayCodec.INSTANCE).add(StreamAddArgs.entries(fields));

        consumeAndAwaitTheUnreadableEntryDeadLettered();
        assertThat(producer.requestBodyAndHeader("redis-delay:jobs?operation=peek", null, RedisDelayConstants.MESSAGE_ID,
                "job-1", String.class)).as("the replacement, still scheduled").isEqualTo("replacement");
    }

    @Test
    void aStreamEntryWithoutAMessageIdButWithAWholeRecordGoesToTheDeadLetterQueue() throws Exception {
        startContext();
        // a record with a whole head (scheduled at, due 0, generation 0) and a readable envelope, in an entry without
        // the message id, written behind the component's back
        byte[] record = recordOf(EnvelopeCodec.encode(new Envelope("payload", Map.of())));
        redis().<byte[], byte[]>getStream(key("jobs", "ready"), ByteArrayCodec.INSTANCE)
                .add(StreamAddArgs.entries(Map.of(Wire.FIELD_RECORD.getBytes(StandardCharsets.UTF_8), record)));

        consumeAndAwaitTheUnreadableEntryDeadLettered();
    }

    /**
     * Starts a consumer of jobs and of its dead-letter queue, and waits until the one stream entry of jobs, which
     * cannot be read, is dead-lettered, without reaching the route, and gone from jobs.
     */
    private void consumeAndAwaitTheUnreadableEntryDeadLettered() throws Exception {
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").process(e -> attempts.add(e.getMessage().copy()));
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        });

        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.LAST_ERROR, String.class))
                .contains("unreadable stream entry");
        await().atMost(Duration.ofSeconds(5)).until(() -> redis().getStream(key("jobs", "ready")).size() == 0);
        assertThat(attempts).isEmpty();
    }

    /**
     * A stored record of this envelope, due at once: its head is scheduled-at in 6 bytes, due time 0 in 7, generation 0
     * in 2.
     */
    private static byte[] recordOf(byte[] envelope) {
        byte[] scheduledAt = ByteBuffer.allocate(8).putLong(1_700_000_000_000L).array();
        return ByteBuffer.allocate(15 + envelope.length).put(scheduledAt, 2, 6).put(new byte[7]).put(new byte[2])
                .put(envelope).array();
    }

    @Test
    void aDeliveryWhoseRecordWasOverwrittenWithAValueTooShortToBeOneIsSettledWithoutAnError() throws Exception {
        try (LogLines consumerLog = LogLines.of(RedisDelayConsumer.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:jobs").process(e -> {
                        attempts.add(e.getMessage().copy());
                        // behind the component's back, while the message is in flight
                        redis().getMap(key("jobs", "msg")).put("job-1", "xx");
                    });
                }
            }).createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "job", RedisDelayConstants.MESSAGE_ID, "job-1");

            var ready = redis().getStream(key("jobs", "ready"));
            await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 1 && ready.size() == 0);
            assertThat(consumerLog.lines()).as("the acknowledgement's script ran to its end").isEmpty();
        }
        assertThat(redis().getMap(key("jobs", "msg")).get("job-1")).as("not the delivered version: left alone")
                .isEqualTo("xx");
    }

    @ParameterizedTest
    @ValueSource(strings = { "asyncConsumer=false", "asyncConsumer=true", "consumerType=polling&pollInterval=100" })
    void aRouteThatThrowsAnErrorNeitherEndsTheConsumerNorHoldsTheRestOfItsBatch(String consumer) throws Exception {
        var producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxMessagesPerPoll=5&visibilityTimeout=500&" + consumer)
                        .process(e -> {
                            attempts.add(e.getMessage().copy());
                            if ("poison".equals(e.getMessage().getBody(String.class))) {
                                throw new StackOverflowError("poison");
                            }
                        });
            }
        }).createProducerTemplate();
        List<String> bodies = List.of("poison", "m1", "m2", "m3", "m4");
        for (String body : bodies) {
            producer.sendBodyAndHeader("redis-delay:jobs?delay=200", body, RedisDelayConstants.MESSAGE_ID, body);
        }

        await().atMost(Duration.ofSeconds(10)).until(() -> attempts.stream().map(m -> m.getBody(String.class))
                .filter(body -> !"poison".equals(body)).count() == 4
                && attempts.stream().filter(m -> "poison".equals(m.getBody(String.class))).count() >= 2);
        producer.sendBodyAndHeader("redis-delay:jobs", "later", RedisDelayConstants.MESSAGE_ID, "later");
        await("a message scheduled afterwards").atMost(Duration.ofSeconds(5))
                .until(() -> attempts.stream().anyMatch(m -> "later".equals(m.getBody(String.class))));
    }

    @Test
    void aFailedDeliveryOfAVersionReplacedMeanwhileSaysWhyItIsNotRetried() throws Exception {
        try (LogLines settlementLog = LogLines.of(Settlement.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    errorHandler(noErrorHandler());
                    from("redis-delay:jobs?retrySchedule=50").process(e -> {
                        attempts.add(e.getMessage().copy());
                        if (attempts.size() == 1) {
                            // a newer version, stored beside the one in flight, which keeps its own schedule
                            e.getContext().createProducerTemplate().sendBodyAndHeader(
                                    "redis-delay:jobs?delay=1h&onDuplicate=replace", "newer", RedisDelayConstants.MESSAGE_ID,
                                    "job-1");
                            throw new IllegalStateException("the old version fails");
                        }
                    });
                }
            }).createProducerTemplate().sendBodyAndHeader("redis-delay:jobs", "older", RedisDelayConstants.MESSAGE_ID,
                    "job-1");

            await().atMost(Duration.ofSeconds(5)).until(() -> settlementLog.lines().stream()
                    .anyMatch(line -> line.contains("job-1") && line.contains("not put back on schedule")
                            && line.contains(Refusal.SUPERSEDED.reason())));
        }
        assertThat(attempts).hasSize(1);
    }

    @Test
    void theSameIdDeadLetteredTwiceKeepsBothDeadLetters() throws Exception {
        ProducerTemplate producer = failingJobsWithJob1ParkedInTheDeadLetterQueue();

        deadLetterJob1(producer);

        assertThat(deadLetters.get(0).getBody()).isEqualTo("first");
        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.MESSAGE_ID, String.class)).startsWith("job-1#");
        assertThat(redis().getMap(key("jobs.dead", "msg")).containsKey("job-1")).as("the earlier dead letter is kept").isTrue();
    }

    @Test
    void aDeadLetterIsStoredBesideAnEarlierOneWhoseFailureNoteCannotBeRead() throws Exception {
        ProducerTemplate producer = failingJobsWithJob1ParkedInTheDeadLetterQueue();
        // written behind the component's back: a failure note that is not one
        redis().getMap(key("jobs.dead", "fail"), StringCodec.INSTANCE).put("job-1", "unreadable");

        deadLetterJob1(producer);

        assertThat(deadLetters.get(0).getHeader(RedisDelayConstants.MESSAGE_ID, String.class)).startsWith("job-1#");
    }

    /**
     * A queue whose every delivery fails and is dead-lettered, with "job-1" scheduled on it and another "job-1" already
     * in its dead-letter queue (due in an hour, so it stays there).
     */
    private ProducerTemplate failingJobsWithJob1ParkedInTheDeadLetterQueue() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from("redis-delay:jobs?maxDeliveries=1").process(e -> {
                    throw new IllegalStateException("always fails");
                });
                from("redis-delay:jobs.dead").process(e -> deadLetters.add(e.getMessage().copy()));
            }
        }).createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs?delay=1h", "first", RedisDelayConstants.MESSAGE_ID, "job-1");
        producer.sendBodyAndHeader("redis-delay:jobs.dead?delay=1h", "parked", RedisDelayConstants.MESSAGE_ID, "job-1");
        return producer;
    }

    /** Makes "job-1" of the queue due now, and waits for its dead letter to be delivered. */
    private void deadLetterJob1(ProducerTemplate producer) {
        producer.sendBodyAndHeader("redis-delay:jobs?operation=reschedule", null, RedisDelayConstants.MESSAGE_ID, "job-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> deadLetters.size() == 1);
    }
}
