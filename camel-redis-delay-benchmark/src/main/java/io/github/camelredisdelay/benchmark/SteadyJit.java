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

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.IntConsumer;

/**
 * Warms a path up until the JIT compilers are nearly idle while it runs, so what is measured next is the steady state
 * and not the compile queue. On two cores a C2 compiler thread busy with Camel's, Netty's and Redisson's methods takes
 * one of them for seconds; and the side that runs second meets shared Netty and Redisson code that the other side's
 * type profiles got compiled for, deoptimized and compiled again.
 *
 * <p>
 * How busy the compilers are is read from the CPU time of the JVM's compiler threads ({@code /proc/self/task}, Linux):
 * {@link java.lang.management.CompilationMXBean} counts a compilation only when it ends, and one C2 compilation of
 * Netty's write path takes up to a second.
 */
final class SteadyJit {

    /** The JIT counts as idle when its threads used at most this share of a round's wall time. */
    private static final double IDLE_SHARE = 0.05;
    private static final Path TASKS = Path.of("/proc/self/task");
    /** Clock ticks per second of {@code /proc} CPU times (USER_HZ, 100 on Linux). */
    private static final long TICKS_PER_SECOND = 100;

    private SteadyJit() {
    }

    /**
     * Runs {@code round} (given its number, from 0) until the JIT was idle during one, at most {@code maxRounds} times.
     */
    static void warmUp(String name, int maxRounds, IntConsumer round) {
        for (int r = 0; r < maxRounds; r++) {
            long compilingBefore = compilingNanos();
            long start = System.nanoTime();
            round.accept(r);
            long wall = System.nanoTime() - start;
            if (compilingNanos() - compilingBefore <= wall * IDLE_SHARE) {
                Bench.log("%s: the JIT was idle in warm-up round %d", name, r + 1);
                return;
            }
        }
        Bench.log("%s: the JIT was still compiling after %d warm-up rounds", name, maxRounds);
    }

    /** CPU time the compiler threads have used, or the compilation time the JVM reports where /proc is missing. */
    private static long compilingNanos() {
        if (!Files.isDirectory(TASKS)) {
            return ManagementFactory.getCompilationMXBean().getTotalCompilationTime() * 1_000_000;
        }
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                ticks += compilerTicks(task);
            }
        } catch (IOException e) {
            throw new IllegalStateException("Cannot list " + TASKS, e);
        }
        return ticks * (1_000_000_000 / TICKS_PER_SECOND);
    }

    /** User plus system ticks of a compiler thread; 0 for other threads and threads that ended meanwhile. */
    private static long compilerTicks(Path task) {
        try {
            String stat = Files.readString(task.resolve("stat"));
            int nameEnd = stat.lastIndexOf(')');
            if (!stat.substring(stat.indexOf('(') + 1, nameEnd).contains("CompilerThre")) {
                return 0;
            }
            // after the name: state, then 10 fields up to utime (14th field of the line) and stime
            String[] fields = stat.substring(nameEnd + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException e) {
            return 0;
        }
    }
}
