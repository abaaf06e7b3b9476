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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.faults.DeliveryLog;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.RoutesBuilder;
import org.redisson.api.RedissonClient;

/**
 * One round of the history check: two nodes (CamelContexts) and maybe a consumer JVM consume the round's queue with the
 * round's options, beside 0-2 {@link TemplateReceivers} of node B, while the {@link Workload} runs, the
 * {@link Redriver} redrives dead letters and the {@link Chaos} disturbs them, and in an outage round
 * {@link RedisOutages} disturb Redis itself; then the queues drain, the {@link HistoryRecorder} puts the history
 * together and the {@link ContractChecker} checks it. The round also fails when it exercised too little to check much.
 */
public final class HistoryRound {

    /** Producer threads. */
    private static final int THREADS = 3;
    /**
     * Producer threads of an outage round: enough that schedules queue behind a call a fault leaves unanswered, on the
     * same node and shard, and fail with it unsent (with three, none did in 4 rounds and 10 faults).
     */
    private static final int OUTAGE_THREADS = 8;
    /** What a round must have seen at least once, or it checked too little. */
    private static final List<String> MUST_EXERCISE = List.of("deliveries", "failed deliveries", "stored replaces",
            "cancels answering true", "batch elements stored");
    /**
     * What a round without Redis faults must have seen besides. Not an outage round: there faults cut the workload and
     * the redrives short, and the dead-letter queue's consumer may take every dead letter first (seed 91106554890753:
     * 24 redrives, none moving any of the 19 dead letters, which that consumer all got).
     */
    private static final String REDRIVES_MOVING = "redrives moving dead letters";
    /** What an outage round must have seen besides. */
    private static final List<String> OUTAGES_MUST_EXERCISE = List.of("Redis faults",
            "operations a Redis fault left unsure");
    private static final int VIOLATIONS_PRINTED = 40;

    /** What a round takes from the test. */
    public interface Environment {

        /** A node, not started, talking to the test's Redis under its key prefix. */
        CamelContext createContext(RoutesBuilder... routes) throws Exception;

        /**
         * Starts a consumer JVM with these consumer endpoint options whose deliveries follow a {@link ScriptedPlan} and
         * are noted, under their bodies, in {@link #emptyDeliveryLog()}; returns once it consumes.
         */
        KillableConsumer startConsumerJvm(String queue, String endpointOptions);

        RedissonClient redis();

        String keyPrefix();

        /** The delivery log, emptied: each round has its own. */
        DeliveryLog emptyDeliveryLog();
    }

    /**
     * A consumer JVM: its process id, how to kill it with SIGKILL, and how to stop it with SIGTERM (its CamelContext
     * stops gracefully); each returns once it exited.
     */
    public record KillableConsumer(long pid, Runnable kill, Runnable terminate) {
    }

    /** The outcome: the seed, a summary line and the violations found. */
    public record Result(long seed, String summary, List<String> violations) {
    }

    private final Environment environment;
    /** The server {@link RedisOutages} disturb, {@code null} in rounds without Redis faults. */
    private final RedisServerProcess server;

    /** Rounds without Redis faults. */
    public HistoryRound(Environment environment) {
        this(environment, null);
    }

    /** Outage rounds: {@code server} is the Redis of the environment, to kill, restart and pause. */
    public HistoryRound(Environment environment, RedisServerProcess server) {
        this.environment = environment;
        this.server = server;
    }

    /**
     * Runs round number {@code round} (its queue's name) with these options: operations for {@code runMs}, then at most
     * {@code drainTimeout} for the queues to drain.
     */
    public Result run(RoundOptions options, int round, long runMs, Duration drainTimeout) throws Exception {
        long seed = options.seed();
        System.out.println("[history] round " + round + " " + options + " runMs=" + runMs + " (repeat with -Dhistory.seed="
                           + seed + " -Dhistory.rounds=1)");
        HistoryQueue queue = options.queue(round);
        DeliveryLog log = environment.emptyDeliveryLog();
        AtomicLong sequence = new AtomicLong();
        HistoryRecorder recorder = new HistoryRecorder(server == null ? THREADS : OUTAGE_THREADS);
        Redelayer redelayer = new Redelayer(queue, sequence, recorder::redelayed);
        DeadLetteredIds deadLettered = new DeadLetteredIds();
        CamelContext a = environment.createContext(
                NodeRoutes.of(queue, "A", options.nodeA(), log, redelayer, deadLettered, true));
        CamelContext b = environment.createContext(
                NodeRoutes.of(queue, "B", options.nodeB(), log, redelayer, deadLettered, false));
        a.start();
        b.start();
        KilledConsumer killed = KilledConsumer.NONE;
        Runnable kill = null;
        if (options.jvm() != null) {
            KillableConsumer jvm = environment.startConsumerJvm(queue.name(), queue.consumerOptions(options.jvm()));
            KilledConsumer victim = KilledConsumer.of(
                    environment.redis(), environment.keyPrefix(), queue, jvm.pid(), options.terminate());
            killed = victim;
            kill = () -> victim.kill(options.terminate() ? jvm.terminate() : jvm.kill());
        }
        long until = System.currentTimeMillis() + runMs;
        FaultWindows faults = new FaultWindows();
        Chaos chaos = new Chaos(seed, faults);
        chaos.start(b, NodeRoutes.consumerRouteId("B"), until, (long) (runMs * options.killAt()), kill);
        RedisOutages outages = server == null ? null : new RedisOutages(server, seed, faults);
        if (outages != null) {
            outages.start(until);
        }
        TemplateReceivers receivers = new TemplateReceivers(queue, b, log, faults, seed);
        receivers.start(options.receivers());
        ProducerTemplate producerA = a.createProducerTemplate();
        ProducerTemplate producerB = b.createProducerTemplate();
        Redriver redriver = new Redriver(seed, queue, deadLettered, recorder::redrove);
        redriver.start(producerA, producerB, until);
        chaos.stopDeadLetters(a, NodeRoutes.deadLetterRouteId("A"), redriver::running);
        new Workload(seed, queue, sequence, recorder).run(producerA, producerB, until);
        redriver.join();
        List<String> violations = new ArrayList<>(chaos.join());
        if (outages != null) {
            violations.addAll(outages.join());
            System.out.println("[history] seed=" + seed + ": Redis faults " + faults);
        }

        long drainStart = System.currentTimeMillis();
        QueueDrain drain = new QueueDrain(producerA, queue);
        violations.addAll(drain.awaitDrained(drainTimeout));
        System.out.println("[history] seed=" + seed + ": drain took " + (System.currentTimeMillis() - drainStart) + " ms");
        violations.addAll(receivers.stop());
        History history = recorder.history(queue, log.read(), killed.asJudged(faults), faults);
        Findings findings = ContractChecker.check(history);
        violations.addAll(findings.violations());
        violations.addAll(drain.leftovers(environment.redis(), environment.keyPrefix(), faults.count() > 0));
        violations.addAll(unexercised(history.exercised(), options));
        a.stop();
        b.stop();

        System.out.println("[history] seed=" + seed + ": " + history.summary() + ", " + violations.size() + " violations;"
                           + " exercised " + history.exercised());
        findings.coverage().forEach((what, n) -> System.out.println("[history]   covered " + what + ": " + n));
        violations.stream().limit(VIOLATIONS_PRINTED).forEach(v -> System.out.println("[history] VIOLATION " + v));
        return new Result(seed, history.summary(), violations);
    }

    private List<String> unexercised(Map<String, Long> exercised, RoundOptions options) {
        List<String> required = new ArrayList<>(MUST_EXERCISE);
        if (options.receivers() > 0) {
            required.add("deliveries to receivers");
        }
        if (server != null) {
            required.addAll(OUTAGES_MUST_EXERCISE);
        } else {
            required.add(REDRIVES_MOVING);
        }
        return required.stream().filter(what -> exercised.get(what) == 0)
                .map(what -> "the round exercised no " + what + ", so it checked too little").toList();
    }
}
