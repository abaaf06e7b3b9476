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
import java.util.function.LongFunction;

import io.github.camelredisdelay.faults.history.HistoryRound;
import io.github.camelredisdelay.faults.history.HistoryRound.KillableConsumer;
import io.github.camelredisdelay.faults.history.RoundOptions;
import io.github.camelredisdelay.faults.history.ScriptedPlan;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.redisson.api.RedissonClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Base of the randomized history checks: runs the rounds the system properties ask for, each with options drawn from
 * its seed, and fails naming every round whose history breaks the contract, with how to repeat it. System properties:
 * {@value #SEED} (the first round's seed, default {@code System.nanoTime()}; round {@code i} uses seed + i; a seed
 * fixes the options, operations and faults, not the timing), {@value #ROUNDS} (default the test's), {@value #RUN_MS}
 * (how long each round sends operations, default 15000), {@value #DRAIN_MS} (how long the queues are waited for to
 * drain, default 60000; again while they shrink, up to four times in all).
 */
abstract class HistoryTestSupport extends FaultTestSupport {

    static final String SEED = "history.seed";
    static final String ROUNDS = "history.rounds";
    static final String RUN_MS = "history.runMs";
    static final String DRAIN_MS = "history.drainMs";

    private static final int VIOLATIONS_IN_MESSAGE = 5;
    /** The longest a round's consumer JVM may take to stop gracefully, Redis faults included. */
    private static final Duration JVM_STOP_TIMEOUT = Duration.ofSeconds(30);

    /**
     * Runs {@value #ROUNDS} rounds (default {@code defaultRounds}) of {@code round} with options drawn by {@code draw}
     * from each round's seed, and asserts that none broke the contract.
     */
    void assertRoundsFollowTheContract(int defaultRounds, LongFunction<RoundOptions> draw, HistoryRound round)
            throws Exception {
        long firstSeed = Long.getLong(SEED, System.nanoTime());
        int rounds = Integer.getInteger(ROUNDS, defaultRounds);
        long runMs = Long.getLong(RUN_MS, 15_000);
        Duration drainTimeout = Duration.ofMillis(Long.getLong(DRAIN_MS, 60_000));
        List<String> failedRounds = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            RoundOptions options = draw.apply(firstSeed + i);
            HistoryRound.Result result = round.run(options, i, runMs, drainTimeout);
            if (!result.violations().isEmpty()) {
                failedRounds.add("seed " + result.seed() + " (repeat with -D" + SEED + "=" + result.seed() + " -D" + ROUNDS
                                 + "=1; " + options + "; " + result.summary() + "): " + result.violations().size()
                                 + " violations, first: "
                                 + String.join("\n    ", result.violations().stream().limit(VIOLATIONS_IN_MESSAGE).toList()));
            }
        }
        assertThat(failedRounds).as("rounds whose history breaks the contract").isEmpty();
    }

    /** Where a round's consumers note their deliveries, emptied: each round has its own. */
    DeliveryLog emptyDeliveryLog() {
        redis().getList(deliveryLogKey()).delete();
        return redisDeliveryLog();
    }

    /** The options of a round's consumer JVM, with where it notes its deliveries: here as they are, the Redis list. */
    ConsumerJvm.Options consumerJvmNotingTo(ConsumerJvm.Options options) {
        return options;
    }

    /** What a round takes from this test. */
    HistoryRound.Environment environment() {
        return new HistoryRound.Environment() {
            @Override
            public CamelContext createContext(RoutesBuilder... routes) throws Exception {
                return HistoryTestSupport.this.createContext(routes);
            }

            @Override
            public KillableConsumer startConsumerJvm(String queue, String endpointOptions) {
                ConsumerJvm jvm = launchConsumerJvm(consumerJvmNotingTo(consumerJvmOptions(queue, endpointOptions, 0, true)
                        .withPlan(ScriptedPlan.class))).awaitReady(redis(), JVM_START_TIMEOUT);
                return new KillableConsumer(jvm.pid(), jvm::kill, () -> jvm.terminate(JVM_STOP_TIMEOUT));
            }

            @Override
            public RedissonClient redis() {
                return HistoryTestSupport.this.redis();
            }

            @Override
            public String keyPrefix() {
                return keyPrefix;
            }

            @Override
            public DeliveryLog emptyDeliveryLog() {
                return HistoryTestSupport.this.emptyDeliveryLog();
            }
        };
    }
}
