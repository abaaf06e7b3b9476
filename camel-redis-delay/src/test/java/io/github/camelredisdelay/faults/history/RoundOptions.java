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
package io.github.camelredisdelay.faults.history;

import java.util.Random;
import java.util.SplittableRandom;

/**
 * The options of one round, drawn from its seed: 1-4 shards, the transfer batch, and each consumer's type (blocking or
 * polling), threads, batch size and {@code asyncConsumer}; about every other round a consumer JVM too, killed (or, in
 * about a third of those rounds, stopped with SIGTERM) after 30-80 % of the run; 0-2 receivers.
 *
 * @param jvm       the consumer JVM's consumer options, {@code null} when the round has none
 * @param killAt    when the consumer JVM is killed, as a fraction of the run
 * @param terminate whether it is stopped with SIGTERM (its CamelContext stops gracefully) rather than killed
 * @param receivers how many threads of node B take messages with a {@code ConsumerTemplate} ({@link TemplateReceivers})
 */
public record RoundOptions(long seed, int shards, int transferBatchSize, String nodeA, String nodeB, String jvm,
        double killAt, int receivers, boolean terminate) {

    /** @param mayKill whether the round may have a consumer JVM to kill */
    public static RoundOptions draw(long seed, boolean mayKill) {
        Random random = new Random(new SplittableRandom(seed).nextLong());
        int shards = new int[] { 1, 1, 2, 3, 4 }[random.nextInt(5)];
        int transferBatchSize = random.nextBoolean() ? 2 : 100;
        String nodeA = consumerOptions(random, false);
        String nodeB = consumerOptions(random, true);
        // a blocking consumer JVM: a polling one gets few messages beside the nodes' blocking consumers
        String jvm = mayKill && random.nextBoolean() ? consumerOptions(random, false) : null;
        double killAt = 0.3 + 0.5 * random.nextDouble();
        int receivers = random.nextInt(3);
        return new RoundOptions(
                seed, shards, transferBatchSize, nodeA, nodeB, jvm, killAt, receivers, random.nextInt(3) == 0);
    }

    private static String consumerOptions(Random random, boolean mayPoll) {
        String type = mayPoll && random.nextBoolean() ? "polling&pollInterval=200" : "blocking";
        return "consumerType=" + type + "&concurrentConsumers=" + (1 + random.nextInt(3)) + "&maxMessagesPerPoll="
               + new int[] { 1, 3, 10 }[random.nextInt(3)] + "&asyncConsumer=" + random.nextBoolean();
    }

    /** The queue of round {@code round} with these options. */
    public HistoryQueue queue(int round) {
        return new HistoryQueue("hist" + round, shards, transferBatchSize);
    }

    @Override
    public String toString() {
        return "seed=" + seed + " shards=" + shards + " transferBatchSize=" + transferBatchSize + " node A: " + nodeA
               + " node B: " + nodeB + (jvm == null
                       ? " no consumer JVM"
                       : " consumer JVM to " + (terminate ? "stop with SIGTERM" : "kill") + " at " + (int) (killAt * 100)
                         + " % of the run: " + jvm)
               + " receivers=" + receivers;
    }
}
