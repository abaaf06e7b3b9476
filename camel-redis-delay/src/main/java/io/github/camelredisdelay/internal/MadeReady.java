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
package io.github.camelredisdelay.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduled dead letters a redrive made ready, so that a redrive that fails part-way puts those it did not move
 * back on schedule, each for the due time its record holds ({@code redrive-return.lua}, which leaves those moved,
 * claimed or fetched): left ready, a consumer of the dead-letter queue would get them before their retry. Each is kept
 * by its entry, id and record's head only (not the envelope), about 200 bytes, and at most {@link #MAX_KEPT} of them:
 * those past it that a failing redrive leaves ready are counted in a warning.
 */
final class MadeReady {

    private static final Logger LOG = LoggerFactory.getLogger(MadeReady.class);
    /** The most kept (about 20 MB): a redrive of all makes every scheduled dead letter of its queue ready first. */
    static final int MAX_KEPT = 100_000;

    private final Map<QueueShard, List<ReadyEntry>> byShard = new LinkedHashMap<>();
    private int kept;
    private long notKept;

    /** Notes the entries {@code made} ready on {@code shard}, and returns them. */
    List<ReadyEntry> add(QueueShard shard, List<ReadyEntry> made) {
        List<ReadyEntry> ofShard = byShard.computeIfAbsent(shard, any -> new ArrayList<>());
        for (ReadyEntry entry : made) {
            if (!StoredRecord.hasHead(entry.record())) {
                continue;
            }
            if (kept == MAX_KEPT) {
                notKept++;
            } else {
                kept++;
                ofShard.add(new ReadyEntry(
                        entry.entryId(), entry.messageId(),
                        Arrays.copyOf(entry.record(), Wire.RECORD_HEAD_BYTES)));
            }
        }
        return made;
    }

    /**
     * Runs {@code redrive}; when it fails, puts those made ready back on schedule where it can (a failure to is added
     * to the redrive's as suppressed), and rethrows.
     */
    <T> T putBackOnFailure(Supplier<T> redrive) {
        try {
            return redrive.get();
        } catch (RuntimeException failure) {
            byShard.forEach((shard, entries) -> putBack(shard, entries, failure));
            if (notKept > 0) {
                LOG.warn("A failed redrive leaves {} scheduled dead letters it made ready in the dead-letter queue's ready "
                         + "stream, where a consumer of the dead-letter queue gets them before their retry: it put back "
                         + "on schedule only the first {} it made ready",
                        notKept, MAX_KEPT);
            }
            throw failure;
        }
    }

    private static void putBack(QueueShard shard, List<ReadyEntry> entries, RuntimeException failure) {
        try {
            for (int from = 0; from < entries.size(); from += Redrive.PAGE) {
                shard.inspection().returnToDueSet(entries.subList(from, Math.min(from + Redrive.PAGE, entries.size())));
            }
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
