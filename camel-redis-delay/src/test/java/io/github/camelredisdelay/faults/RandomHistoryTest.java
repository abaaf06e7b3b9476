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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.faults.history.HistoryRound;
import io.github.camelredisdelay.faults.history.HistoryRound.KillableConsumer;
import io.github.camelredisdelay.faults.history.RoundOptions;
import io.github.camelredisdelay.faults.history.ScriptedPlan;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A randomized whole-queue history check against the contract: in each round three producer threads schedule (keep,
 * replace or fail on duplicates, own or generated ids, a delay or due time of 0-2 s), cancel, reschedule and peek on
 * two nodes whose consumers take random options; the routes fail some deliveries (retries, dead letters), outlast their
 * 1 s leases, re-delay some messages; one node's route is stopped or suspended now and then, and about every other
 * round a consumer JVM is killed with SIGKILL. Everything sent, answered and delivered is recorded and checked
 * afterwards (see {@link io.github.camelredisdelay.faults.history.ContractChecker}); the queues must drain to nothing.
 * <p>
 * Tagged {@code slow}: it runs with {@code -Pfaults}. System properties: {@value #SEED} (the first round's seed,
 * default {@code System.nanoTime()}; round {@code i} uses seed + i; a seed fixes the options and operations, not the
 * timing), {@value #ROUNDS} (default 4), {@value #RUN_MS} (how long each round sends operations, default 15000),
 * {@value #KILL} (whether rounds may kill a consumer JVM, default true), {@value #DRAIN_MS} (longest wait for the
 * queues to drain, default 60000).
 */
@Tag("slow")
class RandomHistoryTest extends FaultTestSupport {

    static final String SEED = "history.seed";
    static final String ROUNDS = "history.rounds";
    static final String RUN_MS = "history.runMs";
    static final String KILL = "history.kill";
    static final String DRAIN_MS = "history.drainMs";

    private static final int VIOLATIONS_IN_MESSAGE = 5;

    @Test
    void historiesFollowTheContract() throws Exception {
        long firstSeed = Long.getLong(SEED, System.nanoTime());
        int rounds = Integer.getInteger(ROUNDS, 4);
        long runMs = Long.getLong(RUN_MS, 15_000);
        boolean mayKill = Boolean.parseBoolean(System.getProperty(KILL, "true"));
        Duration drainTimeout = Duration.ofMillis(Long.getLong(DRAIN_MS, 60_000));
        List<String> failedRounds = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            RoundOptions options = RoundOptions.draw(firstSeed + round, mayKill);
            HistoryRound.Result result = new HistoryRound(environment()).run(options, round, runMs, drainTimeout);
            if (!result.violations().isEmpty()) {
                failedRounds.add("seed " + result.seed() + " (repeat with -D" + SEED + "=" + result.seed() + " -D" + ROUNDS
                                 + "=1; " + options + "; " + result.summary() + "): " + result.violations().size()
                                 + " violations, first: "
                                 + String.join("\n    ", result.violations().stream().limit(VIOLATIONS_IN_MESSAGE).toList()));
            }
        }
        assertThat(failedRounds).as("rounds whose history breaks the contract").isEmpty();
    }

    private HistoryRound.Environment environment() {
        return new HistoryRound.Environment() {
            @Override
            public CamelContext createContext(RoutesBuilder... routes) throws Exception {
                return RandomHistoryTest.this.createContext(routes);
            }

            @Override
            public KillableConsumer startConsumerJvm(String queue, String endpointOptions) {
                ConsumerJvm jvm = launchConsumerJvm(consumerJvmOptions(queue, endpointOptions, 0, true)
                        .withPlan(ScriptedPlan.class)).awaitReady(redis(), JVM_START_TIMEOUT);
                return new KillableConsumer(jvm.pid(), jvm::kill);
            }

            @Override
            public RedissonClient redis() {
                return RandomHistoryTest.this.redis();
            }

            @Override
            public String keyPrefix() {
                return keyPrefix;
            }

            @Override
            public DeliveryLog emptyDeliveryLog() {
                redis().getList(deliveryLogKey()).delete();
                return redisDeliveryLog();
            }
        };
    }
}
