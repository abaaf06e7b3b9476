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
package io.github.camelredisdelay.benchmark;

import java.time.Duration;

/**
 * Runs both sides' schedule, transfer and consume paths before the first scenario, so the first measured side does not
 * pay for compiling code the second side then finds compiled (Camel's path is the longer one to warm up).
 */
final class JitWarmUp {

    private static final int MESSAGES = 10_000;
    private static final int SENDERS = 4;
    private static final Duration BOUND = Duration.ofSeconds(60);

    private JitWarmUp() {
    }

    static void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 5000);
        bench.onBothSides("warm-up", (side, queue) -> {
            long start = System.nanoTime();
            Receipts receipts = new Receipts(messages);
            queue.startConsumers(1, receipts);
            try {
                Senders.run("jit-warm-up", messages, SENDERS, 0, BOUND, i -> {
                    Due due = Due.in(1 + i % 20);
                    queue.schedule(Payload.of(i, due.epochMillis(), LatenessProbe.BODY_SIZE), due);
                });
                receipts.awaitAll(BOUND);
            } finally {
                queue.stopConsumers();
            }
            System.out.printf("JIT warm-up: %,d messages through %s in %.1f s%n", receipts.received(), side.label(),
                    (System.nanoTime() - start) / 1e9);
            return receipts.received();
        });
    }
}
