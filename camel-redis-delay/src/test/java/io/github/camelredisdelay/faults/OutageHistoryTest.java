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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.faults.history.HistoryRound;
import io.github.camelredisdelay.faults.history.RoundOptions;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The randomized history check through outages of Redis itself: the rounds of {@link RandomHistoryTest} (whose consumer
 * JVM, about every other round, notes its deliveries in a file, and is killed with SIGKILL as there), with eight
 * producer threads instead of three (so that schedules queue behind a call a fault leaves unanswered), while Redis is
 * killed with SIGKILL and restarted, has every client's connections closed ({@code CLIENT KILL TYPE normal}), or pauses
 * writes for less or more than the client's 3 s timeout or its retry ({@code CLIENT PAUSE ... WRITE}), every 1.5-5 s
 * (see {@link io.github.camelredisdelay.faults.history.RedisOutages}). An operation that failed, or ran near a fault,
 * may have done something other than its reply says; the check then still requires that nothing Redis acknowledged is
 * lost, nothing is delivered after a cancel that surely answered true, a schedule that failed as not stored is never
 * delivered, the ids a {@code PartlyStoredBatchException} names are delivered, nothing is delivered before its due
 * time, operations fail only near a fault, and both queues drain to nothing. A round fails too if it met no fault or no
 * operation a fault left unsure.
 * <p>
 * Tagged {@code slow}: it runs with {@code -Pfaults}. System properties: those of {@link HistoryTestSupport}, 4 rounds
 * by default (about two and a half minutes).
 */
@Tag("slow")
class OutageHistoryTest extends HistoryTestSupport {

    @Test
    void historiesThroughRedisOutagesFollowTheContract() throws Exception {
        RedisServerProcess server = redisProcess();
        assertRoundsFollowTheContract(4, seed -> RoundOptions.draw(seed, true), new HistoryRound(environment(), server));
    }

    /**
     * The nodes note deliveries in this JVM, the consumer JVM in a file: a note to Redis would fail while it is down.
     */
    @Override
    DeliveryLog emptyDeliveryLog() {
        try {
            Files.deleteIfExists(consumerJvmLog());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return DeliveryLog.inMemory().readingAlso(DeliveryLog.inFile(consumerJvmLog()));
    }

    @Override
    ConsumerJvm.Options consumerJvmNotingTo(ConsumerJvm.Options options) {
        return options.withLogFile(consumerJvmLog());
    }

    private Path consumerJvmLog() {
        return targetDir().resolve("faults-logs").resolve(deliveryLogKey().replace(':', '-') + ".log");
    }

    /** Leaves Redis to the next tests as the harness started it, writing and syncing once a second. */
    @AfterEach
    void unpauseAndSyncOnceASecondAgain() {
        RedisServerExtension.process().filter(RedisServerProcess::isRunning).ifPresent(server -> {
            server.command("CLIENT", "UNPAUSE");
            server.command("CONFIG", "SET", "appendfsync", "everysec");
        });
    }
}
