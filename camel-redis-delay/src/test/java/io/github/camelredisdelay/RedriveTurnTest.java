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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.internal.QueueShard;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redrives from one dead-letter queue take turns (field {@code *} of the dead-letter queue's redrive hash): how a
 * redrive waits for its turn, and what keeps a turn held.
 */
class RedriveTurnTest extends RedisDelayTestSupport {

    /** The turn of another redrive from dead-letter queue {@code jobs.dead}, taken for {@code lastsMs}. */
    private void anotherRedriveHoldsTheTurn(long lastsMs) {
        QueueShard deadLetters = new QueueShard(ConnectedClient.borrowed(redis()), QueueKeys.of(keyPrefix, "jobs.dead"));
        assertThat(deadLetters.inspection().redriveTurn("another-redrive", lastsMs)).isZero();
    }

    /**
     * A redrive waiting for the turn of another when its CamelContext stops (its RedissonClient, the application's,
     * stays up) ends its wait: it fails saying so, and moves nothing, rather than run once the other's turn ends.
     */
    @Test
    void aRedriveWaitingForItsTurnWhenItsCamelContextStopsFailsSayingSoAndMovesNothing() throws Exception {
        CamelContext context = startContext();
        ProducerTemplate producer = context.createProducerTemplate();
        producer.requestBody("redis-delay:jobs.dead?operation=scheduleBatch", List.of("j1"));
        anotherRedriveHoldsTheTurn(5_000);

        try (LogLines log = LogLines.of("io.github.camelredisdelay.internal.RedriveTurn")) {
            CompletableFuture<Exchange> redrive
                    = CompletableFuture.supplyAsync(() -> producer.request("redis-delay:jobs?operation=redrive", e -> {
                    }));
            await().atMost(Duration.ofSeconds(5)).until(() -> !log.lines().isEmpty());
            context.stop();

            Exception failure = redrive.get(15, TimeUnit.SECONDS).getException();
            assertThat(failure).as("the redrive's failure").isNotNull().hasMessageContaining("stopped while it waited for "
                                                                                             + "the turn another redrive");
        }
        assertThat(redis().getMap(key("jobs.dead", "msg")).size()).as("dead letters").isEqualTo(1);
        assertThat(redis().getMap(key("jobs", "msg")).isEmpty()).as("nothing moved").isTrue();
    }

    /**
     * A redrive by id puts back on schedule the dead letters of its id it lists ready before their due time and does
     * not move: with a dead-letter queue two queues share and the same id in both, that may be the other queue's dead
     * letter, which the other queue's redrive with a limit just made ready to move. So it takes its turn as the others
     * do: it waits while another redrive holds the turn (saying so), and gives its own up at its end.
     */
    @Test
    void aRedriveByIdWaitsForTheTurnAnotherRedriveHoldsThenGivesItsOwnUp() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.sendBodyAndHeader("redis-delay:jobs.dead", "j1", RedisDelayConstants.MESSAGE_ID, "j1");
        anotherRedriveHoldsTheTurn(1_500);

        try (LogLines log = LogLines.of("io.github.camelredisdelay.internal.RedriveTurn")) {
            Object moved = producer.requestBodyAndHeader("redis-delay:jobs?operation=redrive", null,
                    RedisDelayConstants.MESSAGE_ID, "j1");

            assertThat(moved).isEqualTo(1L);
            assertThat(log.lines()).singleElement().asString().startsWith("INFO")
                    .contains("Redrive into queue jobs waits for another redrive from dead-letter queue jobs.dead to end");
        }
        assertThat(redis().getMap(key("jobs.dead", "redrive")).get("*")).as("the turn, given up").isNull();
    }

    /**
     * A purge of the dead-letter queue while a redrive runs empties it, and took the redrive hash along, the turn the
     * redrive holds with it: a second redrive then started beside the first. The purge now keeps a turn that is held,
     * and the second redrive waits for it.
     */
    @Test
    void aPurgeOfTheDeadLetterQueueKeepsTheTurnARunningRedriveHolds() throws Exception {
        ProducerTemplate producer = startContext().createProducerTemplate();
        producer.requestBody("redis-delay:jobs.dead?operation=scheduleBatch", List.of("j1", "j2"));
        anotherRedriveHoldsTheTurn(1_500);

        Object purged = producer.requestBodyAndHeader("redis-delay:jobs.dead?operation=purge", null,
                RedisDelayConstants.CONFIRM, "jobs.dead");

        assertThat(purged).isEqualTo(2L);
        assertThat(redis().<String, String>getMap(key("jobs.dead", "redrive")).get("*")).as("the turn")
                .startsWith("another-redrive ");
        try (LogLines log = LogLines.of("io.github.camelredisdelay.internal.RedriveTurn")) {
            Object moved = producer.requestBody("redis-delay:jobs?operation=redrive", (Object) null);

            assertThat(moved).isEqualTo(0L);
            assertThat(log.lines()).singleElement().asString().startsWith("INFO")
                    .contains("Redrive into queue jobs waits for another redrive from dead-letter queue jobs.dead to end");
        }
    }
}
