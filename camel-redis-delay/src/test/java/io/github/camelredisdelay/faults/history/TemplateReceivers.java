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

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.faults.DeliveryLog;
import io.github.camelredisdelay.faults.RecordingProcessor;
import org.apache.camel.CamelContext;
import org.apache.camel.ConsumerTemplate;
import org.apache.camel.Exchange;

/**
 * Receivers of a round's queue beside the routes: threads of a node that take messages with a {@code ConsumerTemplate}
 * (at once, or waiting 100 ms, 600 ms or 2 s, drawn from the round's seed), handle each as a route would
 * ({@link RecordingProcessor} with {@link ScriptedPlan#forReceivers()}, noted as consumer {@value #CONSUMER}) and hand
 * it back done, failed as its body plans. A receive that fails away from any Redis fault is collected, for the round to
 * report.
 */
final class TemplateReceivers {

    /** The name receivers note their deliveries under. */
    static final String CONSUMER = "R";

    private static final long[] RECEIVE_TIMEOUTS_MILLIS = { 0, 100, 600, 2000 };
    private static final long JOIN_MILLIS = 10_000;
    /** More receives than a round's run leaves time for: the loop ends at the round's stop, bounded in count too. */
    private static final int MAX_RECEIVES = 1_000_000;

    private final HistoryQueue queue;
    private final CamelContext node;
    private final RecordingProcessor processor;
    private final FaultWindows faults;
    private final long seed;
    private final List<Thread> threads = new ArrayList<>();
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private volatile boolean receiving = true;

    TemplateReceivers(HistoryQueue queue, CamelContext node, DeliveryLog log, FaultWindows faults, long seed) {
        this.queue = queue;
        this.node = node;
        this.processor = new RecordingProcessor(log, CONSUMER, ScriptedPlan.forReceivers(), true);
        this.faults = faults;
        this.seed = seed;
    }

    /** Starts {@code count} receivers. */
    void start(int count) {
        for (int r = 0; r < count; r++) {
            Random random = new Random(new SplittableRandom(seed * 31 - 10 - r).nextLong());
            ConsumerTemplate template = node.createConsumerTemplate();
            Thread thread = new Thread(() -> receive(template, random), "history-receiver-" + r);
            threads.add(thread);
            thread.start();
        }
    }

    /** Stops receiving and waits for the receivers (each at most 10 s); the errors they met away from any fault. */
    List<String> stop() throws InterruptedException {
        receiving = false;
        for (Thread thread : threads) {
            thread.join(JOIN_MILLIS);
            if (thread.isAlive()) {
                errors.add(thread.getName() + " did not stop within " + JOIN_MILLIS + " ms");
            }
        }
        return errors;
    }

    private void receive(ConsumerTemplate template, Random random) {
        try {
            receiveUntilStopped(template, random);
        } finally {
            template.stop();
        }
    }

    private void receiveUntilStopped(ConsumerTemplate template, Random random) {
        String uri = queue.receiverUri();
        for (int n = 0; n < MAX_RECEIVES && receiving; n++) {
            long timeout = RECEIVE_TIMEOUTS_MILLIS[random.nextInt(RECEIVE_TIMEOUTS_MILLIS.length)];
            long start = System.currentTimeMillis();
            try {
                Exchange exchange = timeout == 0 ? template.receiveNoWait(uri) : template.receive(uri, timeout);
                if (exchange != null) {
                    handle(template, exchange);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                long end = System.currentTimeMillis();
                if (!faults.overlaps(start, end, FaultWindows.AFTERMATH_MS)) {
                    errors.add("a receive failed away from any Redis fault [" + start + ".." + end + "]: " + e);
                    e.printStackTrace(System.out);
                }
            }
        }
    }

    /** Handles a delivery as the routes do and hands it back done: failed when the plan fails it. */
    private void handle(ConsumerTemplate template, Exchange exchange) throws InterruptedException {
        try {
            processor.process(exchange);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception planned) {
            exchange.setException(planned);
        }
        template.doneUoW(exchange);
    }
}
