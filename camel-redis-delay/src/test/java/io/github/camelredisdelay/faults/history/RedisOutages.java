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
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.embedded.RedisServerProcess;

/**
 * What disturbs Redis itself during an outage round, paced by the round's seed: every 1.5-5 s the next of the four
 * kinds, in an order drawn for the round (so a round of three faults or more meets most): a SIGKILL of the server and
 * its restart after up to 1.5 s, {@code CLIENT KILL TYPE normal} (every client's connections closed), or
 * {@code CLIENT PAUSE ... WRITE} for 0.3-2.3 s, for 3.5-6 s (longer than the client's 3 s timeout, which its one retry
 * outlasts) or for 6.5-8.5 s (longer than that retry too, so operations under way fail unanswered). Each goes to the
 * round's {@link FaultWindows}. The server syncs its append-only file before each reply ({@code appendfsync always},
 * set again after each restart), so a kill loses nothing Redis acknowledged. Errors are collected, for the round to
 * report.
 */
public final class RedisOutages {

    /** The kinds of fault. */
    enum Kind {
        KILL,
        CLIENT_KILL,
        PAUSE,
        LONG_PAUSE,
        OUTLASTING_PAUSE
    }

    /** A fault follows the last one after {@code MIN_GAP_MILLIS} plus up to {@code MORE_GAP_MILLIS}. */
    private static final int MIN_GAP_MILLIS = 1500;
    private static final int MORE_GAP_MILLIS = 3500;
    /** The longest a killed server stays down before its restart. */
    private static final int MAX_DOWN_MILLIS = 1500;
    /** No fault starts this close to the end of the run, so the last one ends soon after it. */
    private static final long QUIET_END_MILLIS = 2000;
    private static final int MAX_FAULTS = 1000;

    private final RedisServerProcess server;
    /** Draws the kinds' order, the gaps and the durations from the round's seed. */
    private final Random random;
    private final List<Kind> order;
    private final FaultWindows windows;
    private final List<String> errors = new CopyOnWriteArrayList<>();
    private Thread thread;

    RedisOutages(RedisServerProcess server, long seed, FaultWindows windows) {
        this.server = server;
        this.random = new Random(new SplittableRandom(seed * 31 - 2).nextLong());
        this.order = new ArrayList<>(List.of(Kind.values()));
        Collections.shuffle(order, random);
        this.windows = windows;
    }

    /** Has the server sync each write, then starts disturbing it until {@code untilMillis}. */
    void start(long untilMillis) {
        syncEachWrite();
        thread = new Thread(() -> disturb(untilMillis), "history-redis-outages");
        thread.start();
    }

    /** Waits until the last fault is over; the errors met. */
    List<String> join() throws InterruptedException {
        thread.join();
        return errors;
    }

    private void disturb(long untilMillis) {
        for (int n = 0; n < MAX_FAULTS; n++) {
            if (!Chaos.pause(MIN_GAP_MILLIS + random.nextInt(MORE_GAP_MILLIS))
                    || System.currentTimeMillis() > untilMillis - QUIET_END_MILLIS) {
                return;
            }
            Kind kind = order.get(n % order.size());
            int window = windows.started(kind.name());
            try {
                fault(kind);
            } catch (RuntimeException e) {
                errors.add("the Redis fault " + kind + " failed: " + e);
            } finally {
                windows.ended(window);
            }
        }
    }

    private void fault(Kind kind) {
        switch (kind) {
            case KILL -> {
                server.kill();
                Chaos.pause(random.nextInt(MAX_DOWN_MILLIS));
                server.restart();
                syncEachWrite();
            }
            case CLIENT_KILL -> server.command("CLIENT", "KILL", "TYPE", "normal");
            case PAUSE -> pauseWrites(300 + random.nextInt(2000));
            case LONG_PAUSE -> pauseWrites(3500 + random.nextInt(2500));
            case OUTLASTING_PAUSE -> pauseWrites(6500 + random.nextInt(2000));
        }
    }

    private void pauseWrites(int millis) {
        server.command("CLIENT", "PAUSE", String.valueOf(millis), "WRITE");
        Chaos.pause(millis);
    }

    /** A kill then loses no write Redis acknowledged (with {@code everysec} it may lose a second's). */
    private void syncEachWrite() {
        server.command("CONFIG", "SET", "appendfsync", "always");
    }
}
