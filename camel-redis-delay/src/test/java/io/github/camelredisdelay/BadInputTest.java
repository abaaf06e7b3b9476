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

import java.io.File;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.ResolveEndpointFailedException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@CamelSide
class BadInputTest extends RedisDelayTestSupport {

    private CamelContext node;
    private ProducerTemplate producer;

    @BeforeEach
    void startNode() throws Exception {
        node = startContext();
        producer = node.createProducerTemplate();
    }

    /** Schedules the body "x" on queue orders with one header set. */
    private Exchange scheduleWithHeader(String name, Object value) {
        return producer.send("redis-delay:orders", e -> {
            e.getMessage().setBody("x");
            e.getMessage().setHeader(name, value);
        });
    }

    @Test
    void queueNameWithAForbiddenCharacterIsRejectedNamingIt() {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders/eu"))
                .isInstanceOf(ResolveEndpointFailedException.class)
                .rootCause().hasMessageContaining("'/' at position 6")
                .hasMessageContaining("allowed are letters, digits and . _ : -");
    }

    @Test
    void queueNameLongerThan200CharactersIsRejected() {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:" + "q".repeat(201)))
                .rootCause().hasMessageContaining("201 characters long; at most 200");
    }

    @ParameterizedTest
    @ValueSource(strings = { "30M", "1H", "soon", "5 parsecs", "250ms30s", "1m1m", "500ms1m", "30s1h" })
    void delayOptionThatCamelWouldMisreadIsRejected(String delay) {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?delay=" + delay))
                .rootCause().hasMessageContaining("'" + delay + "'")
                .hasMessageContaining("lower-case units, each once and largest first (30m");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "delay=-1000;delay option of queue orders must not be negative: -1000",
            "delay=-5m;delay option of queue orders must not be negative: -5m",
            "pollInterval=-1s;pollInterval option of queue orders must not be negative: -1s",
            "retrySchedule=1s,-5s;retrySchedule entry of queue orders must not be negative: -5s" })
    void aNegativeDurationOptionIsRejectedAsNegative(String option, String message) {
        // milliseconds and units are accepted forms: "use milliseconds (1500), ..." would not say what is wrong
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?" + option))
                .rootCause().hasMessageContaining(message);
    }

    @ParameterizedTest
    @ValueSource(strings = { "-1000", "-5m" })
    void aNegativeDelayHeaderWrittenAsTextFailsAsNegativeAndStoresNothing(String delay) {
        Exchange result = scheduleWithHeader(RedisDelayConstants.DELAY, delay);

        // as a negative number or Duration in the header does
        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delay (header CamelRedisDelayDelay) of queue orders must not be negative: " + delay);
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void delayOptionInCamelsFormsIsAccepted() {
        RedisDelayEndpoint endpoint = node.getEndpoint("redis-delay:orders?delay=1h30m", RedisDelayEndpoint.class);
        assertThat(endpoint.getConfiguration().getDelay()).isEqualTo(5_400_000L);
        assertThat(node.getEndpoint("redis-delay:orders?delay=PT5S", RedisDelayEndpoint.class).getConfiguration().getDelay())
                .isEqualTo(5_000L);
    }

    @Test
    void badRetryScheduleIsRejectedWhenTheEndpointStarts() {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?retrySchedule=1s,2X"))
                .rootCause().hasMessageContaining("retrySchedule entry of queue orders '2X'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = { "15s,3m,;3", "15s,,3m;2", ",15s;1" })
    void retryScheduleWithAnEmptyEntryIsRejectedNamingItsPosition(String schedule, int position) {
        // "15s,3m," read as 15s,3m would hide a delay the operator meant to write (or a stray comma)
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?retrySchedule=" + schedule))
                .rootCause().hasMessageContaining("retrySchedule of queue orders '" + schedule + "'")
                .hasMessageContaining("entry " + position + " is empty");
    }

    @ParameterizedTest
    @ValueSource(strings = { ",", ",,," })
    void retryScheduleOfOnlySeparatorsIsRejectedAsEmpty(String schedule) {
        // a schedule with no delay would fail every settlement of a failed delivery, which then waits for its lease
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?retrySchedule=" + schedule))
                .rootCause().hasMessageContaining("The retrySchedule of queue orders is empty");
    }

    @Test
    void aQueueThatIsItsOwnDeadLetterQueueIsRejected() {
        // its exhausted messages would come back into it at once, with a fresh delivery count, without end
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?deadLetterQueue=orders"))
                .rootCause().hasMessageContaining("Invalid deadLetterQueue 'orders' of queue orders")
                .hasMessageContaining("a queue cannot be its own dead-letter queue")
                .hasMessageContaining("deadLetterQueue=orders.dead");
    }

    @Test
    void aDeadLetterQueueSetOnTheComponentIsRejectedOnItsOwnEndpointsUnlessTheyNameAnother() {
        node.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().setDeadLetterQueue("failed");

        assertThatThrownBy(() -> node.getEndpoint("redis-delay:failed"))
                .rootCause().hasMessageContaining("Invalid deadLetterQueue 'failed' of queue failed")
                .hasMessageContaining("one set on the component applies to");
        assertThat(node.getEndpoint("redis-delay:failed?deadLetterQueue=failed.dead")).isNotNull();
        assertThat(node.getEndpoint("redis-delay:orders")).isNotNull();
    }

    @Test
    void negativeDatabaseIsRejectedNamingIt() {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?address=redis://127.0.0.1:6379&database=-1"))
                .rootCause().hasMessageContaining("Invalid database -1 of queue orders: at least 0 is required");
    }

    @ParameterizedTest
    @CsvSource({
            "transferInterval=5ms, Invalid transferInterval 5 ms of queue orders: at least 10 ms is required",
            "visibilityTimeout=50ms, Invalid visibilityTimeout 50 ms of queue orders: at least 100 ms is required",
            "pollInterval=0, Invalid pollInterval 0 ms of queue orders: at least 1 ms is required" })
    void durationBelowItsLeastIsRejectedInMilliseconds(String option, String message) {
        // the value is the option's text in ms ("5ms" and "5" alike): a bound without its unit reads as a count
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?" + option)).rootCause().hasMessage(message);
    }

    @ParameterizedTest
    @ValueSource(strings = { "deadLetterQueue", "migrateFrom" })
    void queueNameOptionWithAForbiddenCharacterIsRejectedNamingTheOptionAndTheQueue(String option) {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?" + option + "=legacy/eu"))
                .rootCause().hasMessageContaining(option).hasMessageContaining("'legacy/eu'")
                .hasMessageContaining("of queue orders").hasMessageContaining("'/' at position 6");
    }

    @Test
    void shardsOutOfRangeAreRejectedNamingTheLimits() {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?shards=0"))
                .rootCause().hasMessageContaining("Invalid shards 0 of queue orders: at least 1");
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?shards=129"))
                .rootCause().hasMessageContaining("Invalid shards 129 of queue orders: at most 128");
    }

    @Test
    void visibilityTimeoutBeyondADayIsRejectedNamingTheLimit() {
        // a consumer's name carries its lease, which takeovers of the queue pass to XAUTOCLAIM: a number Redis would
        // refuse there (from 1e14 ms on, as Lua formats it) would fail every takeover of the queue
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?visibilityTimeout=100000000000000"))
                .rootCause().hasMessageContaining("Invalid visibilityTimeout 100000000000000 ms of queue orders")
                .hasMessageContaining("at most 86400000 ms (1 day)");
        assertThat(node.getEndpoint("redis-delay:orders?visibilityTimeout=1d")).isNotNull();
    }

    @Test
    void syncAofWithoutReplicasIsRejectedSayingWhatToDoInstead() {
        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?syncAof=true"))
                .rootCause().hasMessageContaining("syncAof=true on queue orders needs syncReplicas of at least 1")
                .hasMessageContaining("appendfsync always");
    }

    @ParameterizedTest
    @ValueSource(strings = { "30M", "-1s", "", "tomorrow" })
    void badDelayHeaderFailsTheExchangeAndStoresNothing(String delay) {
        Exchange result = scheduleWithHeader(RedisDelayConstants.DELAY, delay);

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.DELAY).hasMessageContaining("queue orders");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "a\uD800", "a\uDC00", "\uDC00\uD800" })
    void aMessageIdThatIsNotValidUnicodeIsRejectedAndStoresNothing(String id) {
        // stored as UTF-8, an unpaired surrogate becomes '?': a\uD800 and a\uDC00 would be one message, the second
        // kept out as a duplicate of the first
        Exchange result = scheduleWithHeader(RedisDelayConstants.MESSAGE_ID, id);

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.MESSAGE_ID).hasMessageContaining("queue orders")
                .hasMessageContaining("unpaired UTF-16 surrogate");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /**
     * Two unrelated exchanges whose id expression gave blanks would share one id: the second would be kept out as a
     * duplicate of the first.
     */
    @ParameterizedTest
    @ValueSource(strings = { "schedule", "cancel", "reschedule", "peek", "redrive" })
    void aMessageIdOfOnlyWhitespaceIsRejectedAndStoresNothing(String operation) {
        Exchange result = producer.send("redis-delay:orders?operation=" + operation, e -> {
            e.getMessage().setBody("x");
            e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, " \t ");
        });

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.MESSAGE_ID).hasMessageContaining("queue orders")
                .hasMessageContaining("non-whitespace character");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    static Stream<Arguments> idsThatAreNoOneValue() {
        return Stream.of(
                Arguments.of("a List of two", List.of("order-1", "order-2")),
                Arguments.of("a List of one", List.of("order-1")),
                Arguments.of("an array", new String[] { "order-1" }),
                Arguments.of("a Map", Map.of("orderId", "order-1")));
    }

    /**
     * A JSONPath over several matches, say, gives a list: its text ("[order-1, order-2]") would be the id, which no
     * cancel or reschedule by the order's id then finds.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("idsThatAreNoOneValue")
    void aMessageIdThatIsACollectionOrMapIsRejectedNamingItsTypeAndStoresNothing(String what, Object id) {
        Exchange result = scheduleWithHeader(RedisDelayConstants.MESSAGE_ID, id);

        assertThat(result.getException()).as(what).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.MESSAGE_ID).hasMessageContaining("queue orders")
                .hasMessageContaining(id.getClass().getName()).hasMessageContaining("one id");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /** Text cut inside a character pair (by substring, say) would come back with '?' for the half it holds. */
    @ParameterizedTest
    @ValueSource(strings = { "emoji cut \uD83D", "\uDE00 cut" })
    void aBodyThatIsNotValidUnicodeIsRejectedNamingWhereAndStoresNothing(String body) {
        Exchange result = producer.send("redis-delay:orders", e -> e.getMessage().setBody(body));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("body")
                .hasMessageContaining("queue orders").hasMessageContaining("unpaired UTF-16 surrogate at index");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /** Text given as a Reader, a body or an element of a batch, is checked as a String is. */
    @ParameterizedTest
    @ValueSource(strings = { "schedule", "scheduleBatch" })
    void aReaderWhoseTextIsNotValidUnicodeIsRejectedAndStoresNothing(String operation) {
        Exchange result = producer.send("redis-delay:orders?operation=" + operation, e -> {
            StringReader text = new StringReader("emoji cut \uD83D");
            e.getMessage().setBody(operation.equals("schedule") ? text : List.of(text));
        });

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("queue orders")
                .hasMessageContaining("unpaired UTF-16 surrogate at index 10");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void aHeaderNameThatIsNotValidUnicodeIsRejectedAndStoresNothing() {
        Exchange result = scheduleWithHeader("note\uD800", "x");

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name of header")
                .hasMessageContaining("queue orders").hasMessageContaining("unpaired UTF-16 surrogate at index 4");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void aHeaderThatIsNotValidUnicodeIsRejectedNamingItAndStoresNothing() {
        Exchange result = scheduleWithHeader("note", "x\uDE00");

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("header note")
                .hasMessageContaining("queue orders").hasMessageContaining("unpaired UTF-16 surrogate at index 1");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /**
     * 2025-11-26T00:00:00Z in epoch seconds, as milliseconds a time in January 1970 that would be due at once, and in
     * epoch microseconds (what Instant-to-micros code and some databases give), as milliseconds a time in the year
     * 57,870 that would keep the message for ever.
     */
    @ParameterizedTest
    @CsvSource({
            "long, 1764115200, seconds", "text, 1764115200, seconds", "long, 1764115200000000, microseconds",
            "text, 1764115200000000, microseconds" })
    void aDueAtInEpochSecondsOrMicrosecondsIsRejectedNamingTheMillisecondsItMeans(String form, long value, String unit) {
        Exchange result = scheduleWithHeader(RedisDelayConstants.DUE_AT, form.equals("long") ? value : String.valueOf(value));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.DUE_AT).hasMessageContaining("queue orders")
                .hasMessageContaining(String.valueOf(value)).hasMessageContaining("epoch " + unit)
                .hasMessageContaining("(1764115200000)");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /**
     * 2025-11-26T00:00:00Z in epoch milliseconds put in the delay header instead of the due-time header (a slip as easy
     * as epoch seconds in the due-time header): as a delay it is 55.9 years, and the message would never be delivered.
     */
    @ParameterizedTest
    @ValueSource(strings = { "long", "text" })
    void aDelayInEpochMillisecondsIsRejectedNamingTheDueTimeHeader(String form) {
        long epochMillis = 1764115200000L;
        Exchange result = scheduleWithHeader(RedisDelayConstants.DELAY,
                form.equals("long") ? epochMillis : String.valueOf(epochMillis));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.DELAY).hasMessageContaining("queue orders")
                .hasMessageContaining(String.valueOf(epochMillis)).hasMessageContaining("2025-11-26T00:00:00Z")
                .hasMessageContaining(RedisDelayConstants.DUE_AT);
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /**
     * The same mistake in the delay option (an endpoint's, or the component's default): every message of the endpoint,
     * and every reschedule and redrive without a delay header, would wait 56 years.
     */
    @Test
    void aDelayOptionInEpochMillisecondsIsRejectedNamingTheDueTimeHeader() {
        long epochMillis = 1767225600000L;

        assertThatThrownBy(() -> node.getEndpoint("redis-delay:orders?delay=" + epochMillis)).rootCause()
                .hasMessageContaining("delay option of queue orders").hasMessageContaining(String.valueOf(epochMillis))
                .hasMessageContaining("2026-01-01T00:00:00Z").hasMessageContaining(RedisDelayConstants.DUE_AT);
        assertThat(node.getEndpoint("redis-delay:orders?delay=999999999999")).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { RedisDelayConstants.DUE_AT, RedisDelayConstants.DELAY })
    void aSchedulingHeaderOfAnUnsupportedTypeIsRejectedNamingItsValue(String header) {
        // a LocalDateTime has no zone: which instant it means is the application's to say
        Exchange result = scheduleWithHeader(header, LocalDateTime.of(2030, 1, 1, 9, 0));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(header)
                .hasMessageContaining("java.time.LocalDateTime").hasMessageContaining("2030-01-01T09:00");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void negativeNumericDelayHeaderIsRejected() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, -1L));

        assertThat(result.getException()).hasMessageContaining("must not be negative: -1");
    }

    @ParameterizedTest
    @ValueSource(strings = { "1500.9", "18446744073709552616" })
    void bigNumberDelayHeaderThatIsNotAWholeNumberOfMillisecondsWithinRangeIsRejected(String delay) {
        Number number = delay.contains(".") ? new BigDecimal(delay) : new BigInteger(delay);
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, number));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(delay);
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void bigDecimalDelayHeaderOfWholeMillisecondsIsAccepted() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, new BigDecimal("1500.000")));

        assertThat(result.getException()).isNull();
        assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
    }

    @Test
    void batchWithAnElementThatCannotBeStoredFailsAndStoresNothing() {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 1_500; i++) {
            items.add(i == 1_200 ? new Object() : "item-" + i);
        }

        Exchange result = producer.send("redis-delay:orders?operation=scheduleBatch&delay=1h",
                e -> e.getMessage().setBody(items));

        assertThat(result.getException()).hasMessageContaining("java.lang.Object cannot be stored on queue orders");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void batchOfRowsThatCannotBeStoredIsRejectedNamingTheElementNotTheBodyAndAdvisingToConvertEachElement() {
        // the rows a sql: or jdbc: step gives: a List of Maps. Refused as "the body of type LinkedHashMap" with the advice
        // to marshal it, a user marshals the list into one JSON text, which a batch refuses as one message
        List<Map<String, Object>> rows = List.of(Map.of("order_id", 1), Map.of("order_id", 2));

        Exchange result = producer.send("redis-delay:orders?operation=scheduleBatch&delay=1h",
                e -> e.getMessage().setBody(rows));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Element at index 0 of the scheduleBatch body")
                .hasMessageContaining("convert each element").hasMessageNotContaining("The body of type");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "byte[]", "String" })
    void batchWhoseBodyIsOneMessageOfTextOrBytesIsRejectedNamingItsTypeAndStoresNothing(String type) {
        // Camel's iteration would make a message of each byte, or of each comma-separated piece of a JSON text
        String json = "{\"a\":1,\"b\":2}";
        Object body = type.equals("String") ? json : json.getBytes(StandardCharsets.UTF_8);

        Exchange result = producer.send("redis-delay:orders?operation=scheduleBatch&delay=1h",
                e -> e.getMessage().setBody(body));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleBatch on queue orders").hasMessageContaining("not a " + type + " body");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void batchWithNoBodyIsRejectedRatherThanTakenAsAnEmptyBatch() {
        // a body a step before left null (a bean that found nothing, a missing variable) is no list of messages:
        // taken as an empty batch, the exchange succeeded with no ids and nothing stored
        Exchange result = producer.send("redis-delay:orders?operation=scheduleBatch&delay=1h",
                e -> e.getMessage().setBody(null));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleBatch on queue orders").hasMessageContaining("no body");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void batchWhoseBodyIsAMapIsRejectedAsNoBodyOfMessagesRatherThanForAnEntryTypeItNeverHeld() {
        // a Map is none of the bodies a batch takes (Collection, array, Iterable, Iterator); Camel's iteration hands
        // out its entries, and the refusal then speaks of "the body of type java.util.LinkedHashMap$Entry" and advises
        // marshalling it, which would give a String body that a batch refuses too
        Map<String, String> orders = new LinkedHashMap<>();
        orders.put("order-1", "first");
        orders.put("order-2", "second");

        Exchange result = producer.send("redis-delay:orders?operation=scheduleBatch&delay=1h",
                e -> e.getMessage().setBody(orders));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scheduleBatch on queue orders").hasMessageNotContaining("$Entry");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @ParameterizedTest
    @MethodSource("badRedriveLimits")
    void redriveLimitHeaderThatIsNoPositiveWholeNumberIsRejectedNamingTheHeaderAndTheValue(Object limit) {
        Exchange result = producer.send("redis-delay:orders?operation=redrive",
                e -> e.getMessage().setHeader(RedisDelayConstants.REDRIVE_LIMIT, limit));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("redrive on queue orders").hasMessageContaining(RedisDelayConstants.REDRIVE_LIMIT)
                .hasMessageContaining(String.valueOf(limit));
    }

    static List<Object> badRedriveLimits() {
        return List.of(0, -1L, 2.5, true, "abc", "", "2.0");
    }

    @ParameterizedTest
    @MethodSource("goodRedriveLimits")
    void redriveLimitHeaderOfAWholeNumberIsAccepted(Object limit) {
        Exchange result = producer.send("redis-delay:orders?operation=redrive",
                e -> e.getMessage().setHeader(RedisDelayConstants.REDRIVE_LIMIT, limit));

        assertThat(result.getException()).isNull();
        assertThat(result.getMessage().getBody()).isEqualTo(0L);
    }

    static List<Object> goodRedriveLimits() {
        return List.of(2, 2L, (short) 2, "2", " 2 ", BigInteger.TWO);
    }

    @Test
    void delayBeyondTheLargestExactTimeIsRejected() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, Long.MAX_VALUE));

        assertThat(result.getException()).hasMessageContaining("too large");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void anIsoDelayHeaderBeyondTheLargestDelayIsRejectedAsTooLargeNotAsAnInvalidForm() {
        // well-formed ISO-8601 (as PT5S), only too long: 999999999999999 days do not fit java.time.Duration's seconds,
        // as 999999999999999d do not fit a long of milliseconds, which is reported as too large
        Exchange result = scheduleWithHeader(RedisDelayConstants.DELAY, "P999999999999999D");

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("P999999999999999D").hasMessageContaining("too large")
                .hasMessageNotContaining("use milliseconds (1500)");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = { "P1W", "P1M", "P1Y" })
    void anIsoDelayInWeeksMonthsOrYearsIsRejectedSayingWhichIsoFormsAreRead(String delay) {
        // ISO-8601 too, but a month or a year has no fixed length: the refusal must not just say "use ISO-8601"
        Exchange result = scheduleWithHeader(RedisDelayConstants.DELAY, delay);

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(delay)
                .hasMessageContaining("days to seconds");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void aDurationDelayHeaderBeyondWhatMillisecondsHoldIsRejectedNamingTheLargestDelay() {
        // as one just past the largest delay is ("... is too large; at most 9007199254740991 ms")
        Exchange result = scheduleWithHeader(RedisDelayConstants.DELAY, Duration.ofSeconds(Long.MAX_VALUE));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.DELAY).hasMessageContaining("too large")
                .hasMessageContaining("at most " + ((1L << 53) - 1) + " ms");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void aDelayThatEndsBeyondTheLargestTimeInRedisIsRejectedNamingIt() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DELAY, (1L << 53) - 10));

        assertThat(result.getException()).hasMessageContaining("beyond the largest supported time")
                .hasMessageContaining("queue orders").hasMessageContaining("delay of " + ((1L << 53) - 10) + " ms");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void dueAtBeyondWhatEpochMillisecondsHoldIsRejectedNamingTheHeaderAndTheRange() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DUE_AT, Instant.MAX));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisDelayConstants.DUE_AT).hasMessageContaining("orders")
                .hasMessageContaining("too large");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void unsupportedDueAtTypeIsRejectedNamingTheAllowedOnes() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.DUE_AT, new Object()));

        assertThat(result.getException()).hasMessageContaining("java.lang.Object")
                .hasMessageContaining("epoch milliseconds (long), Instant, Date, ZonedDateTime");
    }

    @Test
    void unknownOperationIsRejectedNamingTheAllowedOnes() {
        Exchange result = producer.send("redis-delay:orders",
                e -> e.getMessage().setHeader(RedisDelayConstants.OPERATION, "explode"));

        assertThat(result.getException()).hasMessageContaining("'explode'")
                .hasMessageContaining("schedule, scheduleBatch, cancel, reschedule, stats, peek, purge or redrive");
    }

    @Test
    void cancelWithoutIdIsRejected() {
        Exchange result = producer.send("redis-delay:orders?operation=cancel", e -> e.getMessage().setBody("x"));

        assertThat(result.getException()).hasMessageContaining("needs the id")
                .hasMessageContaining(RedisDelayConstants.MESSAGE_ID);
    }

    @Test
    void bodyWithoutAByteConversionFailsClearlyAndStoresNothing() {
        Exchange result = producer.send("redis-delay:orders", e -> e.getMessage().setBody(new Object()));

        assertThat(result.getException()).hasMessageContaining("java.lang.Object cannot be stored on queue orders");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    /**
     * A body Camel has a conversion to bytes for, whose conversion fails this time (a file gone since a step named it,
     * a stream whose connection broke): the failure names what went wrong, not a missing conversion with the advice to
     * marshal the body.
     */
    @Test
    void bodyWhoseConversionFailsIsRefusedNamingTheFailureRatherThanAMissingConversion(@TempDir Path dir) {
        File gone = dir.resolve("order-1.json").toFile();

        Exchange result = producer.send("redis-delay:orders", e -> e.getMessage().setBody(gone));

        assertThat(result.getException()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.io.File cannot be stored on queue orders")
                .hasMessageContaining("java.nio.file.NoSuchFileException").hasMessageContaining("order-1.json")
                .hasMessageNotContaining("no conversion").hasMessageNotContaining("marshal");
        assertThat(redis().getMap(key("orders", "msg")).size()).isZero();
    }

    @Test
    void headerOfAnUnsupportedTypeIsDroppedAndTheRestIsStored() {
        producer.sendBodyAndHeaders("redis-delay:orders?delay=1h", "x", Map.of("kept", "yes", "dropped", new Object()));

        assertThat(redis().getMap(key("orders", "msg")).size()).isEqualTo(1);
    }
}
