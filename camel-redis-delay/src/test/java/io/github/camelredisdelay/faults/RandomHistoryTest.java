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
package io.github.camelredisdelay.faults;

import io.github.camelredisdelay.faults.history.HistoryRound;
import io.github.camelredisdelay.faults.history.RoundOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A randomized whole-queue history check against the contract: in each round three producer threads schedule (keep,
 * replace or fail on duplicates, own or generated ids, a delay or due time of 0-2 s; some as {@code scheduleBatch}),
 * cancel, reschedule and peek on two nodes whose consumers take random options, beside 0-2 {@code ConsumerTemplate}
 * receivers; the routes fail some deliveries (retries, dead letters), outlast their 1 s leases, re-delay some messages;
 * one node's route is stopped or suspended now and then, and about every other round a consumer JVM is killed with
 * SIGKILL (or stopped with SIGTERM, see {@link io.github.camelredisdelay.faults.history.RoundOptions}); the dead-letter
 * queue's consumer is stopped for stretches while a thread redrives dead letters (all, with a limit, or by id).
 * Everything sent, answered and delivered is recorded and checked afterwards (see
 * {@link io.github.camelredisdelay.faults.history.ContractChecker}); the queues must drain to nothing.
 * <p>
 * Tagged {@code slow}: it runs with {@code -Pfaults}. System properties: those of {@link HistoryTestSupport} (4 rounds
 * by default), and {@value #KILL} (whether rounds may kill a consumer JVM, default true).
 */
@Tag("slow")
class RandomHistoryTest extends HistoryTestSupport {

    static final String KILL = "history.kill";

    @Test
    void historiesFollowTheContract() throws Exception {
        boolean mayKill = Boolean.parseBoolean(System.getProperty(KILL, "true"));
        assertRoundsFollowTheContract(4, seed -> RoundOptions.draw(seed, mayKill), new HistoryRound(environment()));
    }
}
