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
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.awaitility.core.ConditionTimeoutException;
import org.redisson.api.RList;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.awaitility.Awaitility.await;

/**
 * Where consumers note each delivery they start and finish, so a test can count lost and duplicate messages afterwards,
 * also across consumer JVMs that were killed. The Redis-backed log goes through a client of its own, never the
 * component's; the in-memory and file ones are for tests that restart Redis itself.
 */
public interface DeliveryLog {

    /** What a consumer noted: it started processing a delivery, or the route finished it. */
    enum Event {
        STARTED,
        FINISHED
    }

    /**
     * One noted event.
     *
     * @param consumer      which consumer, e.g. {@code jvm-1234} or {@code node-a}
     * @param deliveryCount the delivery's {@code CamelRedisDelayDeliveryCount}
     * @param note          what the consumer's {@link DeliveryPlan} noted besides (empty for most tests; no line
     *                      breaks)
     */
    record Entry(Event event, String messageId, int deliveryCount, String consumer, long atMillis, String note) {

        /** An entry without a note. */
        public Entry(Event event, String messageId, int deliveryCount, String consumer, long atMillis) {
            this(event, messageId, deliveryCount, consumer, atMillis, "");
        }

        String encode() {
            return event.name().charAt(0) + "|" + messageId + "|" + deliveryCount + "|" + consumer + "|" + atMillis
                   + (note.isEmpty() ? "" : "|" + note);
        }

        static Entry decode(String text) {
            String[] parts = text.split("\\|", 6);
            Event event = parts[0].equals("S") ? Event.STARTED : Event.FINISHED;
            return new Entry(
                    event, parts[1], Integer.parseInt(parts[2]), parts[3], Long.parseLong(parts[4]),
                    parts.length > 5 ? parts[5] : "");
        }
    }

    /** Notes an event with a note (the last field, so it may hold {@code |}). */
    void record(Event event, String messageId, int deliveryCount, String consumer, String note);

    /** Notes an event without a note. */
    default void record(Event event, String messageId, int deliveryCount, String consumer) {
        record(event, messageId, deliveryCount, consumer, "");
    }

    /** Everything noted so far, in the order it was noted. */
    Deliveries read();

    /**
     * This log, whose {@link #read()} also returns what {@code other} holds, after its own entries (each consumer notes
     * to one log, so each consumer's entries stay in order); notes go to this one.
     */
    default DeliveryLog readingAlso(DeliveryLog other) {
        DeliveryLog own = this;
        return new DeliveryLog() {
            @Override
            public void record(Event event, String messageId, int deliveryCount, String consumer, String note) {
                own.record(event, messageId, deliveryCount, consumer, note);
            }

            @Override
            public Deliveries read() {
                List<Entry> entries = new ArrayList<>(own.read().entries());
                entries.addAll(other.read().entries());
                return new Deliveries(entries);
            }
        };
    }

    /**
     * Waits until every message of {@code ids} was delivered; returns whether they were, so that the caller can report
     * what was lost before it fails.
     */
    default boolean awaitFinished(Collection<String> ids, Duration atMost) {
        try {
            await("every acknowledged send delivered").atMost(atMost).pollInterval(Duration.ofMillis(500))
                    .until(() -> read().finishedIds().containsAll(ids));
            return true;
        } catch (ConditionTimeoutException e) {
            return false;
        }
    }

    /** A log in a Redis list, shared by every JVM that writes to the same key. */
    static DeliveryLog inRedis(RedissonClient client, String key) {
        RList<String> list = client.getList(key, StringCodec.INSTANCE);
        return new DeliveryLog() {
            private static final int PAGE = 10_000;

            @Override
            public void record(Event event, String messageId, int deliveryCount, String consumer, String note) {
                list.add(new Entry(event, messageId, deliveryCount, consumer, System.currentTimeMillis(), note)
                        .encode());
            }

            @Override
            public Deliveries read() {
                int size = list.size();
                List<Entry> entries = new ArrayList<>(size);
                for (int from = 0; from < size; from += PAGE) {
                    for (String text : list.range(from, Math.min(size, from + PAGE) - 1)) {
                        entries.add(Entry.decode(text));
                    }
                }
                return new Deliveries(entries);
            }
        };
    }

    /** A log in this JVM's memory, for consumers running in the test's own CamelContexts. */
    static DeliveryLog inMemory() {
        Queue<Entry> entries = new ConcurrentLinkedQueue<>();
        return new DeliveryLog() {
            @Override
            public void record(Event event, String messageId, int deliveryCount, String consumer, String note) {
                entries.add(new Entry(event, messageId, deliveryCount, consumer, System.currentTimeMillis(), note));
            }

            @Override
            public Deliveries read() {
                return new Deliveries(List.copyOf(entries));
            }
        };
    }

    /**
     * A log in a file, one entry a line, for a consumer JVM that notes deliveries while Redis is down: each note is one
     * append, which the file keeps when the JVM is killed right after. No file yet: nothing noted.
     */
    static DeliveryLog inFile(Path file) {
        return new DeliveryLog() {
            @Override
            public synchronized void record(
                    Event event, String messageId, int deliveryCount, String consumer, String note) {
                String line = new Entry(event, messageId, deliveryCount, consumer, System.currentTimeMillis(), note)
                        .encode() + "\n";
                try {
                    Files.writeString(file, line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot note a delivery in " + file, e);
                }
            }

            @Override
            public Deliveries read() {
                if (!Files.exists(file)) {
                    return new Deliveries(List.of());
                }
                try {
                    String text = Files.readString(file);
                    // a line still being written has no end yet
                    String whole = text.substring(0, text.lastIndexOf('\n') + 1);
                    return new Deliveries(whole.lines().map(Entry::decode).toList());
                } catch (IOException e) {
                    throw new UncheckedIOException("Cannot read the deliveries noted in " + file, e);
                }
            }
        };
    }
}
