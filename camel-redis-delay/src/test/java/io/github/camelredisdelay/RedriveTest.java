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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.DueTime;
import io.github.camelredisdelay.internal.QueueCounts;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.internal.Redrive;
import io.github.camelredisdelay.test.CommandStats;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.SlowLink;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class RedriveTest extends RedisDelayTestSupport {

    /** Failing bodies fail while this holds them; a redriven message then succeeds. */
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final List<Message> delivered = new CopyOnWriteArrayList<>();

    private ProducerTemplate node(String uri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri + "&maxDeliveries=1").process(RedriveTest.this::failOrRecord);
            }
        }).createProducerTemplate();
    }

    /** A route's step: fails the bodies in {@link #failing}, records the others as delivered. */
    private void failOrRecord(Exchange exchange) {
        if (failing.contains(exchange.getMessage().getBody(String.class))) {
            throw new IllegalStateException("shop down");
        }
        delivered.add(exchange.getMessage().copy());
    }

    /**
     * Sends message j1, which fails, to {@code uri} (of queue jobs) and waits until it is in {@code deadLetterQueue}
     * and no longer in queue jobs: the move stores the dead letter before it acknowledges the delivery, and a redrive
     * leaves a dead letter whose id the queue still holds.
     */
    private void deadLetterOne(ProducerTemplate producer, String uri, String deadLetterQueue) {
        failing.add("j1");
        producer.sendBodyAndHeader(uri, "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key(deadLetterQueue, "ready")).size() == 1
                && redis().getMap(key("jobs", "msg")).isEmpty());
        failing.clear();
    }

    /** Sends messages that fail into the dead-letter queue and waits until all are there. */
    private void deadLetter(ProducerTemplate producer, String uri, List<String> ids) {
        failing.addAll(ids);
        ids.forEach(id -> producer.sendBodyAndHeader(uri, id, RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(10)).until(() -> ids.stream().allMatch(id -> "dead".equals(
                producer.request(uri + "&operation=peek", e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id))
                        .getMessage().getHeader(RedisDelayConstants.STATE))));
        failing.clear();
    }

    /**
     * Dead-letters two messages of id order-1 one after the other: the dead-letter queue stores the second as
     * {@code order-1#<stream entry>}. Each time it waits until the queue no longer holds order-1 too: the move stores
     * the dead letter before it acknowledges the delivery, and until then the queue keeps the id (a schedule of it is a
     * duplicate, a redrive leaves the dead letter).
     */
    private void deadLetterOrder1Twice(ProducerTemplate producer, String uri) {
        failing.addAll(List.of("first try", "second try"));
        producer.sendBodyAndHeader(uri, "first try", RedisDelayConstants.MESSAGE_ID, "order-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> allDeadLettered(producer, uri, 1L));
        producer.sendBodyAndHeader(uri, "second try", RedisDelayConstants.MESSAGE_ID, "order-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> allDeadLettered(producer, uri, 2L));
        failing.clear();
    }

    /** The dead letters of the queue of {@code uri}, counted in Redis now (not the 2 s {@code stats} snapshot). */
    private static long deadLettered(ProducerTemplate producer, String uri) {
        return CountedNow.deadLettered(producer.getCamelContext(), uri);
    }

    @Test
    void redriveMovesEveryDeadLetterBackWithAFreshDeliveryCount() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        List<String> ids = List.of("j1", "j2", "j3");
        deadLetter(producer, uri, ids);

        Object moved = producer.requestBody(uri + "&operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(3L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 3);
        assertThat(delivered).allSatisfy(m -> {
            assertThat(m.getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
            assertThat(m.getHeaders()).doesNotContainKeys(RedisDelayConstants.LAST_ERROR, RedisDelayConstants.ORIGINAL_QUEUE);
        });
        assertThat(delivered.stream().map(m -> m.getHeader(RedisDelayConstants.MESSAGE_ID)))
                .containsExactlyInAnyOrderElementsOf(ids);
        assertThat(redis().getKeys().getKeysByPattern(keyPrefix + ":{jobs.dead}:msg")).isEmpty();
    }

    /**
     * Two operators (or one, twice) redrive the same dead-letter queue at once: each dead letter goes back, and is
     * delivered, once; not once per redrive that listed it before the other removed it.
     */
    @Test
    void redrivesRunningAtOnceMoveAndDeliverEachDeadLetterOnce() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        List<String> ids = IntStream.range(0, 300).mapToObj(i -> "j" + i).toList();
        failing.addAll(ids);
        ids.forEach(id -> producer.sendBodyAndHeader(uri, id, RedisDelayConstants.MESSAGE_ID, id));
        // and acknowledged: the move stores the dead letter first, and a redrive leaves one whose id the queue holds
        await().atMost(Duration.ofSeconds(20)).until(() -> allDeadLettered(producer, uri, ids.size()));
        failing.clear();

        ExecutorService operators = Executors.newFixedThreadPool(3);
        try {
            List<Future<Object>> redrives = IntStream.range(0, 3)
                    .mapToObj(i -> operators.submit(() -> producer.requestBody(uri + "&operation=redrive", (Object) null)))
                    .toList();
            long moved = 0;
            for (Future<Object> redrive : redrives) {
                moved += (Long) redrive.get(30, TimeUnit.SECONDS);
            }

            assertThat(moved).as("moved by the three redrives together").isEqualTo(ids.size());
        } finally {
            operators.shutdownNow();
            assertThat(operators.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        // every copy moved back delivered and acknowledged: the queue holds nothing more to deliver
        await().atMost(Duration.ofSeconds(10))
                .until(() -> delivered.size() >= ids.size() && redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(delivered.stream().map(m -> m.getHeader(RedisDelayConstants.MESSAGE_ID, String.class)))
                .containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void redriveMovesOnlyTheDeadLettersPresentWhenItStartedEvenWhenTheyFailAgainMeanwhile() throws Exception {
        String uri = "redis-delay:jobs?maxDeliveries=1&concurrentConsumers=4&maxMessagesPerPoll=50";
        List<String> deliveries = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startRecordingFailures(uri, deliveries);
        // more than one listing page, each dead letter failing again as soon as it is back
        List<String> ids = IntStream.range(0, 120).mapToObj(i -> "j" + i).toList();
        producer.sendBody("redis-delay:jobs?operation=scheduleBatch", ids);
        // and acknowledged: the move stores the dead letter first, and a redrive leaves one whose id the queue holds
        await().atMost(Duration.ofSeconds(20)).until(() -> redis().getStream(key("jobs.dead", "ready")).size() == 120
                && redis().getMap(key("jobs", "msg")).isEmpty());
        deliveries.clear();

        // a limit above the count, so that the redrive ends even when it finds dead letters it moved again
        Object moved = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.REDRIVE_LIMIT,
                240);

        await().atMost(Duration.ofSeconds(20)).until(() -> redis().getStream(key("jobs.dead", "ready")).size() == 120
                && redis().getMap(key("jobs", "msg")).isEmpty());
        assertThat(moved).as("dead letters moved").isEqualTo(120L);
        assertThat(deliveries).as("deliveries of the redriven messages").containsExactlyInAnyOrderElementsOf(ids);
    }

    /**
     * A dead letter moved back that fails again before the redrive has removed it from the dead-letter queue is stored
     * there as {@code <id>#<stream entry>}, which a sharded dead-letter queue holds on the shard that id picks: one the
     * redrive may not have listed yet. The redrive then moved it a second time (606 to 619 moves and deliveries of 600
     * dead letters with three shards).
     */
    @Test
    void redriveOfAShardedQueueMovesOnlyTheDeadLettersPresentWhenItStartedEvenWhenTheyFailAgainMeanwhile()
            throws Exception {
        String uri = "redis-delay:jobs?maxDeliveries=1&concurrentConsumers=4&maxMessagesPerPoll=50&shards=3";
        List<String> deliveries = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startRecordingFailures(uri, deliveries);
        List<String> ids = IntStream.range(0, 600).mapToObj(i -> "j" + i).toList();
        producer.sendBody(uri + "&operation=scheduleBatch", ids);
        await().atMost(Duration.ofSeconds(30)).until(() -> allDeadLettered(producer, uri, ids.size()));
        deliveries.clear();

        // a limit above the count, so that the redrive ends even when it finds dead letters it moved again
        Object moved = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.REDRIVE_LIMIT,
                2 * ids.size());

        await().atMost(Duration.ofSeconds(30)).until(() -> allDeadLettered(producer, uri, ids.size()));
        assertThat(moved).as("dead letters moved").isEqualTo((long) ids.size());
        assertThat(deliveries).as("deliveries of the redriven messages").containsExactlyInAnyOrderElementsOf(ids);
    }

    /** Whether the queue holds nothing and its dead-letter queue {@code count} messages, counted in Redis now. */
    private static boolean allDeadLettered(ProducerTemplate producer, String uri, long count) {
        QueueCounts counts = CountedNow.queue(producer.getCamelContext(), uri);
        return deadLettered(producer, uri) == count && counts.scheduled() + counts.ready() + counts.inFlight() == 0;
    }

    @Test
    void aSecondDeadLetterOfAnIdGoesBackUnderThatIdOnceTheQueueNoLongerHoldsIt() throws Exception {
        String uri = "redis-delay:orders?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetterOrder1Twice(producer, uri);

        // the first dead letter goes back for later: the queue holds order-1 again, and the second must wait
        Object movedForLater = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.DELAY,
                "1h");
        producer.requestBodyAndHeader(uri + "&operation=cancel", null, RedisDelayConstants.MESSAGE_ID, "order-1");
        Object moved = producer.requestBody(uri + "&operation=redrive", (Object) null);

        assertThat(movedForLater).as("moved while the queue holds order-1 again").isEqualTo(1L);
        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("second try");
        assertThat(delivered.get(0).getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo("order-1");
    }

    @ParameterizedTest
    @ValueSource(ints = { 1, 3 })
    void redriveByIdMovesTheSecondDeadLetterOfThatIdToo(int shards) throws Exception {
        String uri = "redis-delay:orders?retrySchedule=10&shards=" + shards;
        ProducerTemplate producer = node(uri);
        deadLetterOrder1Twice(producer, uri);

        Object first = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID,
                "order-1");
        // delivered, and acknowledged (the route records it before its acknowledgement, which may go with the next read):
        // the queue no longer holds order-1, so a peek finds the second dead letter
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1 && "dead".equals(producer.request(
                uri + "&operation=peek", e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "order-1"))
                .getMessage().getHeader(RedisDelayConstants.STATE)));
        Object second = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID,
                "order-1");

        assertThat(first).isEqualTo(1L);
        assertThat(second).as("the second dead letter of order-1, once the first is delivered").isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 2);
        assertThat(delivered).extracting(Message::getBody).containsExactly("first try", "second try");
        assertThat(delivered).extracting(m -> m.getHeader(RedisDelayConstants.MESSAGE_ID)).containsOnly("order-1");
    }

    @Test
    void redriveByIdLeavesADeadLetterWhoseOwnIdOnlyStartsWithThatIdAndAHash() throws Exception {
        String uri = "redis-delay:orders?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetter(producer, uri, List.of("order-1#2-0"));

        Object byPrefix = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID,
                "order-1");
        Object byOwnId = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID,
                "order-1#2-0");

        assertThat(byPrefix).isEqualTo(0L);
        assertThat(byOwnId).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getHeader(RedisDelayConstants.MESSAGE_ID)).isEqualTo("order-1#2-0");
    }

    @Test
    void redriveByTheIdTheDeadLetterQueueShowsMovesTheSecondDeadLetterOfAnId() throws Exception {
        String uri = "redis-delay:orders?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetterOrder1Twice(producer, uri);
        // the id the dead-letter queue holds it under, as its consumer, browsing, the dev console and the ERROR log
        // of the move name it
        String deadLetterId = redis().<String, String>getMap(key("orders.dead", "msg")).keySet().stream()
                .filter(id -> id.startsWith("order-1#")).findFirst().orElseThrow();

        Object moved = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID,
                deadLetterId);

        assertThat(moved).as("redrive of dead letter " + deadLetterId).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("second try");
    }

    @ParameterizedTest
    @ValueSource(longs = { 0, -1 })
    void theJmxRedriveRefusesALimitBelowOneNamingIt(long limit) throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetterOne(producer, uri, "jobs.dead");
        RedisDelayEndpoint endpoint = producer.getCamelContext().getEndpoint(uri, RedisDelayEndpoint.class);

        assertThatThrownBy(() -> endpoint.redriveDeadLetters(limit)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("jobs").hasMessageContaining("positive limit").hasMessageContaining("" + limit);
        assertThat(redis().getStream(key("jobs.dead", "ready")).size()).as("left in the dead-letter queue").isEqualTo(1);
    }

    @Test
    void redriveByIdFindsADeadLetterBeyondTheFirstPagesOfALongDeadLetterQueue() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        // messages due at once in the dead-letter queue's ready stream, as dead letters are
        List<?> ids = producer.requestBody("redis-delay:jobs.dead?operation=scheduleBatch",
                IntStream.range(0, 1_200).mapToObj(i -> "dead-" + i).toList(), List.class);

        Object moved = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID,
                ids.get(1_199));

        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("dead-1199");
    }

    @Test
    void aDeadLetterRedriveCannotReadIsLeftWhereItIsWithAWarningNamingIt() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        // a dead letter whose stored bytes are no envelope (written by a newer version, or damaged)
        QueueShard deadLetters = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "jobs.dead"));
        deadLetters.schedule("unreadable", new byte[] { (byte) 0x7f, 1, 2, 3 }, DueTime.after(0), OnDuplicate.keep);

        try (LogLines log = LogLines.of(Redrive.class)) {
            Object moved = producer.requestBody(uri + "&operation=redrive", (Object) null);

            assertThat(moved).isEqualTo(0L);
            assertThat(log.lines()).singleElement().asString().startsWith("WARN").contains("unreadable", "jobs.dead");
        }
        assertThat(redis().getMap(key("jobs.dead", "msg")).keySet()).containsExactly("unreadable");
    }

    /**
     * A dead letter that cannot be read, which the dead-letter queue's consumer failed and retries in an hour: a
     * redrive, of all, with a limit or by its id, leaves it with a warning, scheduled for that retry, not ready for
     * that consumer at once.
     */
    @ParameterizedTest
    @ValueSource(strings = { "all", "limit", "id" })
    void aScheduledDeadLetterRedriveCannotReadStaysScheduledForItsRetry(String redrive) throws Exception {
        String uri = "redis-delay:jobs?operation=redrive";
        ProducerTemplate producer = startContext().createProducerTemplate();
        QueueShard deadLetters = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "jobs.dead"));
        deadLetters.schedule("unreadable", new byte[] { (byte) 0x7f, 1, 2, 3 }, DueTime.after(3_600_000), OnDuplicate.keep);

        try (LogLines log = LogLines.of(Redrive.class)) {
            Object moved = switch (redrive) {
                case "limit" -> producer.requestBodyAndHeader(uri, null, RedisDelayConstants.REDRIVE_LIMIT, 1);
                case "id" -> producer.requestBodyAndHeader(uri, null, RedisDelayConstants.MESSAGE_ID, "unreadable");
                default -> producer.requestBody(uri, (Object) null);
            };

            assertThat(moved).isIn(0L, false);
            assertThat(log.lines()).isNotEmpty().allMatch(line -> line.startsWith("WARN") && line.contains("unreadable"));
        }
        QueueCounts counts = CountedNow.queue(producer.getCamelContext(), "redis-delay:jobs.dead");
        assertThat(counts.ready()).as("ready").isZero();
        assertThat(counts.scheduled()).as("scheduled").isEqualTo(1L);
    }

    /**
     * A redrive that died (its JVM killed) holding its turn among the redrives from the dead-letter queue holds the
     * next one up until the turn lapses, not for good; the next one says why it waits, and gives its own turn up at its
     * end.
     */
    @Test
    void aRedriveWaitsForTheTurnOfOneThatDiedToLapseThenMovesTheDeadLetters() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetterOne(producer, uri, "jobs.dead");
        QueueShard deadLetters = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "jobs.dead"));
        assertThat(deadLetters.inspection().redriveTurn("a-redrive-that-died", 1500)).isZero();

        try (LogLines log = LogLines.of("io.github.camelredisdelay.internal.RedriveTurn")) {
            Object moved = producer.requestBody(uri + "&operation=redrive", (Object) null);

            assertThat(moved).isEqualTo(1L);
            assertThat(log.lines()).singleElement().asString().startsWith("INFO")
                    .contains("Redrive into queue jobs waits for another redrive from dead-letter queue jobs.dead to end");
        }
        assertThat(redis().getMap(key("jobs.dead", "redrive")).get("*")).as("the turn, given up").isNull();
    }

    @Test
    void redriveByIdMovesOnlyThatDeadLetter() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetter(producer, uri, List.of("j1", "j2"));

        Object moved = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID, "j2");
        Object unknown = producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID, "j9");

        assertThat(moved).isEqualTo(1L);
        assertThat(unknown).isEqualTo(0L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("j2");
        assertThat(redis().getMap(key("jobs.dead", "msg")).keySet()).containsExactly("j1");
    }

    @Test
    void redriveWithALimitAndADelayMovesAtMostThatManyForLater() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetter(producer, uri, List.of("j1", "j2", "j3"));

        Object moved = producer.requestBodyAndHeaders(uri + "&operation=redrive", null,
                Map.of(RedisDelayConstants.REDRIVE_LIMIT, 2, RedisDelayConstants.DELAY, "1h"));

        assertThat(moved).isEqualTo(2L);
        assertThat(redis().getMap(key("jobs.dead", "msg")).size()).isEqualTo(1);
        Message peeked
                = producer.request(uri + "&operation=peek", e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "j1"))
                        .getMessage();
        assertThat(peeked.getHeader(RedisDelayConstants.STATE)).isEqualTo("scheduled");
        assertThat(delivered).isEmpty();
    }

    /**
     * A redrive that fails part-way (here its first copy reaches too few replicas; a connection blip or a failover ends
     * one alike) lets go of the dead letters it claimed and did not get to, so a redrive asked again at once moves
     * them.
     */
    @Test
    void aRedriveAskedAgainAfterOneThatFailedMovesTheDeadLettersTheFailedOneDidNotGetTo() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.requestBody("redis-delay:jobs.dead?operation=scheduleBatch", List.of("j1", "j2", "j3"));

        // the test server has no replica: the first copy is stored on the master, and the redrive fails
        Exchange failed = producer.request("redis-delay:jobs?operation=redrive&syncReplicas=1&syncTimeout=200", e -> {
        });
        assertThat(failed.getException()).isInstanceOf(NotReplicatedException.class);
        assertThat(redis().getMap(key("jobs", "msg")).size()).as("copied back before the failure").isEqualTo(1);

        Object moved = producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(2L);
        assertThat(redis().getMap(key("jobs", "msg")).size()).isEqualTo(3);
        assertThat(redis().getMap(key("jobs.dead", "msg")).size()).as("the dead letter whose copy failed, still claimed")
                .isEqualTo(1);
    }

    /**
     * A redrive of all that fails part-way (here Redis refuses the first copy: the queue's record hash is of another
     * type) puts the scheduled dead letters it made ready and did not move back on schedule, for their own due time:
     * left ready, a consumer of the dead-letter queue would get them at once, before their retry. The failure still
     * reaches the caller.
     */
    @Test
    void aRedriveOfAllThatFailsPartWayPutsTheScheduledDeadLettersItMadeReadyBackOnSchedule() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs.dead", "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        producer.sendBodyAndHeaders("redis-delay:jobs.dead", "j2",
                Map.of(RedisDelayConstants.MESSAGE_ID, "j2", RedisDelayConstants.DELAY, 3_600_000L));
        assertThat(peekState(producer, "jobs", "j1")).as("j1 in queue jobs, its endpoint started").isEqualTo("dead");
        redis().getBucket(key("jobs", "msg")).set("not a hash");

        Exchange failed = producer.request("redis-delay:jobs?operation=redrive", e -> {
        });

        assertThat(failed.getException()).as("the redrive's failure").isNotNull();
        assertThat(peekState(producer, "jobs.dead", "j2")).isEqualTo("scheduled");
        Object scheduledFor = producer.request("redis-delay:jobs.dead?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "j2")).getMessage()
                .getHeader(RedisDelayConstants.SCHEDULED_FOR);
        assertThat((Long) scheduledFor).isGreaterThan(System.currentTimeMillis() + 1_800_000L);
    }

    /**
     * A redrive in a route fed by a queue carries the delivered message's id: with a limit beside it, the one would
     * drop the other, so it fails naming both, and moves nothing.
     */
    @Test
    void redriveWithBothAMessageIdAndALimitFailsNamingBothHeaders() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetter(producer, uri, List.of("j1", "j2", "j3"));

        assertThatThrownBy(() -> producer.requestBodyAndHeaders(uri + "&operation=redrive", null,
                Map.of(RedisDelayConstants.REDRIVE_LIMIT, 2, RedisDelayConstants.MESSAGE_ID, "maintenance-7")))
                .hasRootCauseInstanceOf(IllegalArgumentException.class)
                .rootCause().hasMessageContainingAll("queue jobs", RedisDelayConstants.MESSAGE_ID, "maintenance-7",
                        RedisDelayConstants.REDRIVE_LIMIT, "2");
        assertThat(redis().getMap(key("jobs.dead", "msg")).size()).isEqualTo(3);
    }

    /**
     * A consumer of the dead-letter queue that failed a dead letter scheduled it again after its own retry delay; with
     * that consumer stopped, as an operator stops it before a redrive, the dead letter waits in the dead-letter queue's
     * due set, not its ready stream: a redrive, of all or by its id, moves it back too.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void redriveMovesADeadLetterTheDeadLetterQueuesConsumerFailedAndScheduledAgain(boolean byId) throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = startWithFailingDeadLetterConsumer(uri);
        failing.add("j1");
        producer.sendBodyAndHeader(uri, "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "scheduled".equals(
                producer.request("redis-delay:jobs.dead?operation=peek",
                        e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "j1")).getMessage()
                        .getHeader(RedisDelayConstants.STATE)));
        producer.getCamelContext().getRouteController().stopRoute("alerts");
        failing.clear();

        redriveJ1(producer, uri, byId);
        assertThat(delivered.get(0).getHeader(RedisDelayConstants.DELIVERY_COUNT)).isEqualTo(1);
        assertThat(delivered.get(0).getHeaders()).doesNotContainKeys(RedisDelayConstants.LAST_ERROR,
                RedisDelayConstants.ORIGINAL_QUEUE);
        assertThat(redis().getKeys().getKeysByPattern(keyPrefix + ":{jobs.dead}:msg")).isEmpty();
    }

    /**
     * A dead letter the dead-letter queue's consumer failed and scheduled again an hour ahead, whose id the queue holds
     * again (a newer message): a redrive, of all or by its id, cannot move it back, and leaves it scheduled for its own
     * retry, not ready for that consumer at once.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void redriveThatCannotMoveAScheduledDeadLetterLeavesItScheduledForItsRetry(boolean byId) throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = startWithFailingDeadLetterConsumer(uri);
        failing.add("j1");
        producer.sendBodyAndHeader(uri, "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "scheduled".equals(peekState(producer, "jobs.dead")));
        producer.getCamelContext().getRouteController().stopRoute("alerts");
        failing.clear();
        producer.sendBodyAndHeaders(uri, "newer j1", Map.of(RedisDelayConstants.MESSAGE_ID, "j1",
                RedisDelayConstants.DELAY, 3_600_000L));

        Object moved = byId
                ? producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID, "j1")
                : producer.requestBody(uri + "&operation=redrive", (Object) null);

        assertThat(moved).isIn(0L, false);
        assertThat(peekState(producer, "jobs.dead")).isEqualTo("scheduled");
        Object scheduledFor = producer.request("redis-delay:jobs.dead?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, "j1")).getMessage()
                .getHeader(RedisDelayConstants.SCHEDULED_FOR);
        assertThat((Long) scheduledFor).isGreaterThan(System.currentTimeMillis() + 1_800_000L);
        Map<?, ?> stats = producer.requestBody("redis-delay:jobs.dead?operation=stats", null, Map.class);
        assertThat(stats.get("ready")).isEqualTo(0L);
        assertThat(stats.get("scheduled")).isEqualTo(1L);
    }

    /**
     * A redrive with a limit makes ready the dead letters the dead-letter queue's consumer scheduled again, up to the
     * limit, before it lists them after the older ready ones: one the limit then leaves stays scheduled for its retry.
     */
    @Test
    void redriveWithALimitLeavesAScheduledDeadLetterItDoesNotReachScheduledForItsRetry() throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = startWithFailingDeadLetterConsumer(uri);
        failing.addAll(List.of("j1", "j0"));
        producer.sendBodyAndHeader(uri, "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "scheduled".equals(peekState(producer, "jobs.dead")));
        producer.getCamelContext().getRouteController().stopRoute("alerts");
        producer.sendBodyAndHeader(uri, "j0", RedisDelayConstants.MESSAGE_ID, "j0");
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("jobs.dead", "ready")).size() == 1);
        failing.clear();

        Object moved = producer.requestBodyAndHeader(uri + "&operation=redrive", null,
                RedisDelayConstants.REDRIVE_LIMIT, 1);

        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("j0");
        assertThat(peekState(producer, "jobs.dead")).isEqualTo("scheduled");
    }

    /**
     * A redrive with a limit of one, behind 300 scheduled dead letters due earlier whose ids the queue holds again: it
     * moves the one it can, and reads the shard a few times to get there (twice as many each time), not once per dead
     * letter it could not move. Counted by the due-set lookups Redis ran ({@code ZREVRANGEBYSCORE}): a reading looks up
     * each of the 301 dead letters, a dead letter made ready and put back two.
     */
    @Test
    void aLimitedRedriveBehindManyScheduledDeadLettersItCannotMoveReadsTheShardAFewTimes() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 0; i < 300; i++) {
            Map<String, Object> headers = Map.of(RedisDelayConstants.MESSAGE_ID, "h" + i, RedisDelayConstants.DELAY,
                    3_600_000L + i);
            producer.sendBodyAndHeaders("redis-delay:jobs.dead", "held " + i, headers);
            producer.sendBodyAndHeaders("redis-delay:jobs", "newer " + i, headers);
        }
        producer.sendBodyAndHeaders("redis-delay:jobs.dead", "free", Map.of(RedisDelayConstants.MESSAGE_ID, "free",
                RedisDelayConstants.DELAY, 7_200_000L));
        long lookupsBefore = CommandStats.calls(redis()).get("zrevrangebyscore");

        Object moved = producer.requestBodyAndHeader("redis-delay:jobs?operation=redrive", null,
                RedisDelayConstants.REDRIVE_LIMIT, 1);

        assertThat(moved).isEqualTo(1L);
        assertThat(redis().getMap(key("jobs", "msg")).containsKey("free")).as("moved back to jobs").isTrue();
        // 10 readings (1, 2, 4 ... 512 kept) of 301 and 300 put back: about 3,600; one reading per dead letter: 90,000
        assertThat(CommandStats.calls(redis()).get("zrevrangebyscore") - lookupsBefore).isLessThan(10_000);
        assertThat(CountedNow.queue(producer.getCamelContext(), "redis-delay:jobs.dead").scheduled()).isEqualTo(300);
    }

    /**
     * The dead-letter queue's consumer failed j1, j2 and j3 and retries them in one, two and three hours; the queue
     * holds j1 again (a newer message). A redrive with a limit of two cannot move j1 and moves the next two, j2 and j3,
     * as it passes over a ready dead letter it cannot move: it stops when it reaches the limit or none is left.
     */
    @Test
    void aLimitedRedriveMovesTheNextScheduledDeadLetterInPlaceOfOneItCannotMove() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        for (int i = 1; i <= 3; i++) {
            producer.sendBodyAndHeaders("redis-delay:jobs.dead", "j" + i, Map.of(RedisDelayConstants.MESSAGE_ID, "j" + i,
                    RedisDelayConstants.DELAY, i * 3_600_000L));
        }
        producer.sendBodyAndHeaders("redis-delay:jobs", "newer j1", Map.of(RedisDelayConstants.MESSAGE_ID, "j1",
                RedisDelayConstants.DELAY, 3_600_000L));

        Object moved = producer.requestBodyAndHeader("redis-delay:jobs?operation=redrive", null,
                RedisDelayConstants.REDRIVE_LIMIT, 2);

        assertThat(moved).isEqualTo(2L);
        assertThat(peekState(producer, "jobs.dead", "j1")).isEqualTo("scheduled");
        assertThat(redis().getMap(key("jobs.dead", "msg")).keySet()).containsExactly("j1");
    }

    /**
     * Two operators redrive at once, one all dead letters and one at most one, while the dead-letter queue holds them
     * scheduled (its consumer failed them and retries later): between them they move each dead letter once, and every
     * one; the limited one puts back on schedule none that the other made ready.
     */
    @RepeatedTest(3)
    void aRedriveOfAllAndOneWithALimitRunningAtOnceMoveEveryScheduledDeadLetterBetweenThem() throws Exception {
        int deadLetters = 300;
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.requestBody("redis-delay:jobs.dead?operation=scheduleBatch&delay=1h",
                IntStream.range(0, deadLetters).mapToObj(i -> "dead " + i).toList());
        ExecutorService operators = Executors.newFixedThreadPool(2);
        try {
            CyclicBarrier together = new CyclicBarrier(2);
            Future<Long> limited = operators.submit(() -> {
                together.await(10, TimeUnit.SECONDS);
                return producer.requestBodyAndHeader("redis-delay:jobs?operation=redrive", null,
                        RedisDelayConstants.REDRIVE_LIMIT, 1, Long.class);
            });
            Future<Long> all = operators.submit(() -> {
                together.await(10, TimeUnit.SECONDS);
                return producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null, Long.class);
            });

            assertThat(limited.get(30, TimeUnit.SECONDS) + all.get(30, TimeUnit.SECONDS)).isEqualTo(deadLetters);
        } finally {
            operators.shutdownNow();
        }
        assertThat(redis().getMap(key("jobs", "msg")).size()).isEqualTo(deadLetters);
    }

    /**
     * A redrive moves only the dead letters there when it starts, once. Here the dead-letter queue's consumer failed
     * each (scheduled in an hour), the queue's consumer still fails every message, and the dead-letter queue's consumer
     * fails each dead letter again (scheduled after the others): a redrive with a limit above their count, which makes
     * scheduled dead letters ready as it goes, leaves those dead-lettered anew for the next redrive.
     */
    @Test
    void aLimitedRedriveMovesOnlyTheScheduledDeadLettersPresentWhenItStartsEvenWhenTheyFailAgainMeanwhile()
            throws Exception {
        List<String> alerted = new CopyOnWriteArrayList<>();
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxDeliveries=1&concurrentConsumers=4&maxMessagesPerPoll=50")
                        .throwException(new IllegalStateException("still down"));
                from("redis-delay:jobs.dead?retrySchedule=1h&concurrentConsumers=4&maxMessagesPerPoll=50")
                        .process(e -> alerted.add(e.getMessage().getBody(String.class)))
                        .throwException(new IllegalStateException("alerting down"));
            }
        }).createProducerTemplate();
        List<String> ids = IntStream.range(0, 400).mapToObj(i -> "j" + i).toList();
        producer.sendBody("redis-delay:jobs?operation=scheduleBatch", ids);
        await().atMost(Duration.ofSeconds(60)).until(() -> alerted.size() == ids.size()
                && scheduledOnly(producer, "jobs.dead") == ids.size() && scheduledOnly(producer, "jobs") == 0);

        long moved = producer.requestBodyAndHeader("redis-delay:jobs?operation=redrive", null,
                RedisDelayConstants.REDRIVE_LIMIT, 2 * ids.size(), Long.class);

        // one the consumer of jobs.dead fetches between the claim and the removal stays there too and is not counted:
        // more than there were can only be dead letters added after the redrive started
        assertThat(moved).as("moved, of %s present when the redrive started", ids.size()).isLessThanOrEqualTo(ids.size());
    }

    /**
     * The messages a queue holds, counted in Redis now, when all are scheduled; -1 while some are ready or in flight.
     */
    private static long scheduledOnly(ProducerTemplate producer, String queue) {
        QueueCounts counts = CountedNow.queue(producer.getCamelContext(), "redis-delay:" + queue);
        return counts.ready() + counts.inFlight() == 0 ? counts.scheduled() : -1;
    }

    /**
     * Queues a and b share the dead-letter queue all.dead, whose alerting route failed every dead letter and retries it
     * in an hour: b's three first, then a's three. A redrive of a with a limit of three moves a's three, not none.
     */
    @Test
    void aLimitedRedriveFromASharedDeadLetterQueueMovesItsOwnScheduledDeadLettersBehindAnotherQueues() throws Exception {
        ProducerTemplate producer = startSharingAllDead(true);
        for (String queue : List.of("b", "a")) {
            List<String> ids = List.of(queue + "1", queue + "2", queue + "3");
            failing.addAll(ids);
            ids.forEach(id -> producer.sendBodyAndHeader("redis-delay:" + queue, id, RedisDelayConstants.MESSAGE_ID, id));
            // and acknowledged: the move stores the dead letter first, and a redrive leaves one whose id the queue holds
            await().atMost(Duration.ofSeconds(10)).until(() -> ids.stream()
                    .allMatch(id -> "scheduled".equals(peekState(producer, "all.dead", id)))
                    && redis().getMap(key(queue, "msg")).isEmpty());
        }
        producer.getCamelContext().getRouteController().stopRoute("alerts");
        failing.clear();

        Object moved = producer.requestBodyAndHeader("redis-delay:a?deadLetterQueue=all.dead&operation=redrive", null,
                RedisDelayConstants.REDRIVE_LIMIT, 3);

        assertThat(moved).isEqualTo(3L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 3);
        assertThat(delivered).extracting(Message::getBody).containsExactlyInAnyOrder("a1", "a2", "a3");
        assertThat(List.of("b1", "b2", "b3")).as("b's, put back on schedule for their retry")
                .allMatch(id -> "scheduled".equals(peekState(producer, "all.dead", id)));
    }

    /**
     * Queues a and b share the dead-letter queue all.dead, whose alerting route failed every dead letter and retries it
     * in an hour. An operator redrives a, and another, on a node far from Redis, redrives b while the first is under
     * way: each moves all of its queue's dead letters; none is left scheduled in all.dead because the redrive of a,
     * which made them ready, put them back on schedule as another queue's before the redrive of b got to them.
     */
    @Test
    void aRedriveFromASharedDeadLetterQueueStartedWhileAnotherQueuesRunsMovesAllItsScheduledDeadLetters()
            throws Exception {
        int perQueue = 300;
        ProducerTemplate producer = startSharingAllDead(true);
        List<String> ids = IntStream.range(0, perQueue).boxed().flatMap(i -> Stream.of("a" + i, "b" + i)).toList();
        failing.addAll(ids);
        ids.forEach(id -> producer.sendBodyAndHeader("redis-delay:" + id.charAt(0), id, RedisDelayConstants.MESSAGE_ID, id));
        // and acknowledged: the move stores the dead letter first, and a redrive leaves one whose id the queue holds
        await().atMost(Duration.ofSeconds(60)).until(() -> scheduledOnly(producer, "all.dead") == ids.size()
                && redis().getMap(key("a", "msg")).isEmpty() && redis().getMap(key("b", "msg")).isEmpty());
        producer.getCamelContext().getRouteController().stopRoute("alerts");
        failing.clear();

        ExecutorService operators = Executors.newFixedThreadPool(2);
        try (SlowLink link = SlowLink.open()) {
            CamelContext farNode = createContext();
            farNode.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().setRedissonClient(link.client());
            farNode.start();
            link.roundTrip(Duration.ofMillis(10));
            Future<Long> intoA = operators.submit(() -> producer.requestBody(
                    "redis-delay:a?deadLetterQueue=all.dead&operation=redrive", (Object) null, Long.class));
            await().pollInterval(Duration.ofMillis(2)).atMost(Duration.ofSeconds(10))
                    .until(() -> !redis().getMap(key("a", "msg")).isEmpty() || !delivered.isEmpty());
            Future<Long> intoB = operators.submit(() -> farNode.createProducerTemplate().requestBody(
                    "redis-delay:b?deadLetterQueue=all.dead&operation=redrive", (Object) null, Long.class));

            assertThat(intoA.get(60, TimeUnit.SECONDS)).as("moved into a").isEqualTo(perQueue);
            assertThat(intoB.get(60, TimeUnit.SECONDS)).as("moved into b").isEqualTo(perQueue);
            farNode.stop();
        } finally {
            operators.shutdownNow();
            assertThat(operators.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(CountedNow.queue(producer.getCamelContext(), "redis-delay:all.dead").scheduled())
                .as("left scheduled in all.dead").isZero();
    }

    private static Object peekState(ProducerTemplate producer, String queue) {
        return peekState(producer, queue, "j1");
    }

    private static Object peekState(ProducerTemplate producer, String queue, String id) {
        return producer.request("redis-delay:" + queue + "?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id)).getMessage()
                .getHeader(RedisDelayConstants.STATE);
    }

    /**
     * A consumer of the dead-letter queue that took a dead letter and died holding it (here a ConsumerTemplate that
     * never finishes with it) lets its lease expire: nobody works on that dead letter any more, and a redrive, of all
     * or by its id, moves it back.
     */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void redriveMovesADeadLetterWhoseLeaseAConsumerOfTheDeadLetterQueueLetExpire(boolean byId) throws Exception {
        String uri = "redis-delay:jobs?retrySchedule=10";
        ProducerTemplate producer = node(uri);
        deadLetterOne(producer, uri, "jobs.dead");
        ConsumerTemplate deadLetterConsumer = producer.getCamelContext().createConsumerTemplate();
        assertThat(deadLetterConsumer.receive("redis-delay:jobs.dead?visibilityTimeout=200", 5000)).isNotNull();
        // never finished, never extended: the lease expires
        await().pollDelay(Duration.ofMillis(500)).atMost(Duration.ofSeconds(1)).until(() -> true);

        redriveJ1(producer, uri, byId);
        assertThat(redis().getStream(key("jobs.dead", "ready")).size()).isZero();
        assertThat(redis().getKeys().getKeysByPattern(keyPrefix + ":{jobs.dead}:msg")).isEmpty();
    }

    @Test
    void redriveOfAShardedQueueMovesTheDeadLettersOfEveryShard() throws Exception {
        String uri = "redis-delay:jobs?shards=3&retrySchedule=10";
        ProducerTemplate producer = node(uri);
        List<String> ids = IntStream.range(0, 12).mapToObj(i -> "s" + i).toList();
        deadLetter(producer, uri, ids);

        Object moved = producer.requestBody(uri + "&operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(12L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 12);
        assertThat(delivered.stream().map(Message::getBody)).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    void endpointsThatNameNoDeadLetterQueueCountAndRedriveTheOneTheConsumerNames() throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // the producer's endpoint starts first, and leaves out the consumer option deadLetterQueue
                from("direct:new").to("redis-delay:jobs");
                from("redis-delay:jobs?deadLetterQueue=jobs-failed&maxDeliveries=1").process(RedriveTest.this::failOrRecord);
            }
        }).createProducerTemplate();
        deadLetterOne(producer, "direct:new", "jobs-failed");

        Map<?, ?> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);
        Object moved = producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null);

        assertThat(stats.get("deadLetterQueue")).isEqualTo("jobs-failed");
        assertThat(stats.get("deadLettered")).isEqualTo(1L);
        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
    }

    @Test
    void redriveFromADeadLetterQueueSharedByTwoQueuesMovesOnlyTheQueuesOwnDeadLetters() throws Exception {
        ProducerTemplate producer = startSharingAllDead(false);
        failing.addAll(List.of("of-a", "of-b"));
        producer.sendBodyAndHeader("redis-delay:a", "of-a", RedisDelayConstants.MESSAGE_ID, "of-a");
        producer.sendBodyAndHeader("redis-delay:b", "of-b", RedisDelayConstants.MESSAGE_ID, "of-b");
        // and acknowledged: the move stores the dead letter first, and a redrive leaves one whose id the queue holds
        await().atMost(Duration.ofSeconds(10)).until(() -> redis().getStream(key("all.dead", "ready")).size() == 2
                && redis().getMap(key("a", "msg")).isEmpty() && redis().getMap(key("b", "msg")).isEmpty());
        failing.clear();

        Object moved = producer.requestBody("redis-delay:a?deadLetterQueue=all.dead&operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("of-a");
        assertThat(redis().getStream(key("all.dead", "ready")).size()).as("b's dead letter stays").isEqualTo(1);
    }

    /**
     * A dead-letter queue shared by queues a and b, whose consumer failed b's dead letter and scheduled it again an
     * hour ahead: a redrive of queue a leaves that dead letter to b, scheduled for its retry, not ready at once.
     */
    @Test
    void redriveFromASharedDeadLetterQueueLeavesAnotherQueuesScheduledDeadLetterScheduled() throws Exception {
        ProducerTemplate producer = startSharingAllDead(true);
        failing.add("j1");
        producer.sendBodyAndHeader("redis-delay:b", "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        await().atMost(Duration.ofSeconds(10)).until(() -> "scheduled".equals(peekState(producer, "all.dead")));
        producer.getCamelContext().getRouteController().stopRoute("alerts");

        Object moved = producer.requestBody("redis-delay:a?deadLetterQueue=all.dead&operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(0L);
        assertThat(peekState(producer, "all.dead")).isEqualTo("scheduled");
    }

    @Test
    void theDeadLetterQueueARouteNamesWinsOverTheDefaultOfAConsumerTemplateThatReceivedFirst() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?deadLetterQueue=jobs-failed&maxDeliveries=1").routeId("jobs").autoStartup(false)
                        .process(RedriveTest.this::failOrRecord);
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        // a ConsumerTemplate's consumer of the queue starts first, on the default dead-letter queue
        assertThat(node.createConsumerTemplate().receiveNoWait("redis-delay:jobs")).isNull();
        node.getRouteController().startRoute("jobs");
        deadLetterOne(producer, "redis-delay:jobs", "jobs-failed");

        Map<?, ?> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);

        assertThat(stats.get("deadLetterQueue")).isEqualTo("jobs-failed");
        assertThat(stats.get("deadLettered")).isEqualTo(1L);
    }

    @Test
    void aConsumerRouteReplacedByOneNamingAnotherDeadLetterQueueLeavesItsOwnUncounted() throws Exception {
        CamelContext node = startJobsNode("redis-delay:jobs?deadLetterQueue=jobs-old&maxDeliveries=1");
        ProducerTemplate producer = node.createProducerTemplate();

        try (LogLines log = LogLines.of(RedisDelayEndpoint.class)) {
            replaceJobsRoute(node, "redis-delay:jobs?deadLetterQueue=jobs-new&maxDeliveries=1");
            deadLetterOne(producer, "direct:new", "jobs-new");

            Map<?, ?> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);
            Object moved = producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null);

            assertThat(stats.get("deadLetterQueue")).isEqualTo("jobs-new");
            assertThat(stats.get("deadLettered")).isEqualTo(1L);
            assertThat(moved).isEqualTo(1L);
            await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
            assertThat(log.lines()).noneMatch(line -> line.contains("name two dead-letter queues"));
        }
    }

    @Test
    void aReadOfTheDeadLetterQueueAReplacedRouteNamedThatFailedDoesNotFailTheCountsOfTheNewOne() throws Exception {
        CamelContext node = startJobsNode("redis-delay:jobs?deadLetterQueue=jobs-old");
        ProducerTemplate producer = node.createProducerTemplate();
        // a key of the old dead-letter queue of another type: counting its dead letters fails
        redis().getBucket(key("jobs-old", "msg"), StringCodec.INSTANCE).set("not a hash");
        assertThatThrownBy(() -> producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class))
                .hasStackTraceContaining("WRONGTYPE");

        replaceJobsRoute(node, "redis-delay:jobs?deadLetterQueue=jobs-new");
        Map<?, ?> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);

        assertThat(stats.get("deadLetterQueue")).isEqualTo("jobs-new");
        assertThat(stats.get("deadLettered")).isEqualTo(0L);
    }

    /**
     * A node with the consumer route "jobs" of {@code consumerUri} and a producer route, direct:new, whose endpoint
     * keeps the queue's statistics while the consumer route is replaced.
     */
    private CamelContext startJobsNode(String consumerUri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:new").to("redis-delay:jobs");
                from(consumerUri).routeId("jobs").process(RedriveTest.this::failOrRecord);
            }
        });
    }

    /** Replaces the consumer route "jobs" by one of {@code consumerUri}, as a redeployment at runtime does. */
    private void replaceJobsRoute(CamelContext node, String consumerUri) throws Exception {
        node.getRouteController().stopRoute("jobs");
        node.removeRoute("jobs");
        node.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(consumerUri).routeId("jobs").process(RedriveTest.this::failOrRecord);
            }
        });
    }

    @Test
    void aStoppedConsumerTemplateThatNamedADeadLetterQueueLeavesTheRoutesDefaultCounted() throws Exception {
        CamelContext node = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?maxDeliveries=1").routeId("jobs").autoStartup(false)
                        .process(RedriveTest.this::failOrRecord);
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();
        ConsumerTemplate receiver = node.createConsumerTemplate();
        assertThat(receiver.receiveNoWait("redis-delay:jobs?deadLetterQueue=jobs-inspect")).isNull();
        receiver.stop();

        node.getRouteController().startRoute("jobs");
        deadLetterOne(producer, "redis-delay:jobs", "jobs.dead");

        Map<?, ?> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);

        assertThat(stats.get("deadLetterQueue")).isEqualTo("jobs.dead");
        assertThat(stats.get("deadLettered")).isEqualTo(1L);
    }

    @ParameterizedTest
    @ValueSource(strings = { "jobs-failed", "jobs.dead" })
    void theDeadLetterQueueAConsumerUsesWinsOverOneAProducerEndpointNamesFirst(String consumers) throws Exception {
        ProducerTemplate producer = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                // an operator's endpoint that starts first and names another dead-letter queue (a producer's option is
                // its own)
                from("direct:legacyStats").to("redis-delay:jobs?operation=stats&deadLetterQueue=jobs.legacy");
                // the consumer names its dead-letter queue, or uses the default
                from("redis-delay:jobs?maxDeliveries=1"
                     + (consumers.equals("jobs.dead") ? "" : "&deadLetterQueue=" + consumers))
                        .process(RedriveTest.this::failOrRecord);
            }
        }).createProducerTemplate();
        deadLetterOne(producer, "redis-delay:jobs", consumers);

        Map<?, ?> stats = producer.requestBody("redis-delay:jobs?operation=stats", null, Map.class);
        Object moved = producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null);

        assertThat(stats.get("deadLetterQueue")).isEqualTo(consumers);
        assertThat(stats.get("deadLettered")).isEqualTo(1L);
        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
    }

    /**
     * Starts a route from {@code uri} that records the body of each delivery in {@code deliveries} and fails it (the
     * queue's consumers are "still down"); returns a producer of its CamelContext.
     */
    private ProducerTemplate startRecordingFailures(String uri, List<String> deliveries) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> deliveries.add(e.getMessage().getBody(String.class)))
                        .throwException(new IllegalStateException("still down"));
            }
        }).createProducerTemplate();
    }

    /** Redrives j1 by its id or with all dead letters, and expects it moved and delivered once. */
    private void redriveJ1(ProducerTemplate producer, String uri, boolean byId) {
        Object moved = byId
                ? producer.requestBodyAndHeader(uri + "&operation=redrive", null, RedisDelayConstants.MESSAGE_ID, "j1")
                : producer.requestBody(uri + "&operation=redrive", (Object) null);

        assertThat(moved).isEqualTo(1L);
        await().atMost(Duration.ofSeconds(5)).until(() -> delivered.size() == 1);
        assertThat(delivered.get(0).getBody()).isEqualTo("j1");
    }

    /**
     * Starts queues a and b, which share the dead-letter queue all.dead, and with {@code alerts} a route on all.dead
     * (id alerts) that fails every dead letter and retries it in an hour.
     */
    private ProducerTemplate startSharingAllDead(boolean alerts) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                for (String queue : List.of("a", "b")) {
                    from("redis-delay:" + queue + "?deadLetterQueue=all.dead&maxDeliveries=1")
                            .process(RedriveTest.this::failOrRecord);
                }
                if (alerts) {
                    from("redis-delay:all.dead?retrySchedule=1h").routeId("alerts").process(RedriveTest::failAlert);
                }
            }
        }).createProducerTemplate();
    }

    /** The step of a route on a dead-letter queue whose alerting is down. */
    private static void failAlert(Exchange exchange) {
        throw new IllegalStateException("alerting down");
    }

    /**
     * Starts a consumer of {@code uri} that dead-letters at once what {@code failing} names, and a consumer of its
     * dead-letter queue (route {@code alerts}) that fails every dead letter and schedules it again an hour later.
     */
    private ProducerTemplate startWithFailingDeadLetterConsumer(String uri) throws Exception {
        return startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri + "&maxDeliveries=1").process(RedriveTest.this::failOrRecord);
                from("redis-delay:jobs.dead?retrySchedule=1h").routeId("alerts").process(RedriveTest::failAlert);
            }
        }).createProducerTemplate();
    }

}
