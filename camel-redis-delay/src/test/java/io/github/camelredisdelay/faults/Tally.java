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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.camelredisdelay.test.RedisServerExtension;

/**
 * The outcome of a fault scenario: acknowledged sends, messages delivered, further deliveries of them, and the ones
 * never delivered.
 *
 * @param sent                    sends the producer saw acknowledged
 * @param delivered               acknowledged messages whose processing finished at least once
 * @param duplicates              finished deliveries beyond the first of a message
 * @param lost                    acknowledged messages never delivered, sorted
 * @param unacknowledgedDelivered delivered messages whose send failed on the producer's side (it was stored
 *                                nevertheless: the reply was lost); fine for at-least-once
 */
public record Tally(int sent, int delivered, int duplicates, Set<String> lost, int unacknowledgedDelivered) {

    /** Results go to the console and are appended to this file, one line per scenario run. */
    static final Path RESULTS = FaultTestSupport.targetDir().resolve("faults-results.txt");

    /**
     * Prints the scenario's result line, naming the version of the test's Redis server, and appends it to
     * {@link #RESULTS}.
     */
    public Tally report(String scenario, Duration took, String notes) {
        return report(scenario, RedisServerExtension.version(), took, notes);
    }

    /**
     * Prints the scenario's result line and appends it to {@link #RESULTS}.
     *
     * @param redisVersion the version of the Redis the scenario ran against, e.g. {@code 7.0.15}
     */
    public Tally report(String scenario, String redisVersion, Duration took, String notes) {
        String line = String.format("[faults] %-58s redis %-7s sent=%-7d delivered=%-7d duplicates=%-5d lost=%-4d"
                                    + " unackedDelivered=%-3d took=%5.1fs %s%s",
                scenario, redisVersion, sent, delivered, duplicates, lost.size(),
                unacknowledgedDelivered, took.toMillis() / 1000.0, notes,
                lost.isEmpty() ? "" : " lostIds=" + lost.stream().limit(20).collect(Collectors.joining(",")));
        System.out.println(line);
        try {
            Files.createDirectories(RESULTS.getParent());
            Files.writeString(RESULTS, line + System.lineSeparator(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot append to " + RESULTS, e);
        }
        return this;
    }
}
