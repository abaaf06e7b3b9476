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

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The progress of one migration from an {@code RDelayedQueue}: messages moved by this JVM and what the legacy queue
 * still holds. Logs it at INFO at most once a minute while there is something to say, and says once when the legacy
 * queue is empty.
 */
public final class MigrationProgress {

    private static final Logger LOG = LoggerFactory.getLogger(MigrationProgress.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final String legacy;
    private final String queue;
    private final LongSupplier nanoClock;
    private long moved;
    private long movedAtLastLog;
    private long left = -1;
    private long steppedAtNanos;
    private boolean owned;
    private boolean emptyAnnounced;
    private boolean refusalAnnounced;
    private long lastLogNanos;
    private boolean logged;

    public MigrationProgress(String legacy, String queue) {
        this(legacy, queue, System::nanoTime);
    }

    MigrationProgress(String legacy, String queue, LongSupplier nanoClock) {
        this.legacy = legacy;
        this.queue = queue;
        this.nanoClock = nanoClock;
    }

    /**
     * Records one step.
     *
     * @param owned whether this JVM holds the migration lease (another one migrates when not)
     * @param count messages moved in the step
     * @param left  what the legacy queue holds after the step
     */
    public synchronized void record(boolean owned, int count, long left) {
        long now = nanoClock.getAsLong();
        steppedAtNanos = now;
        this.owned = owned;
        refusalAnnounced = false;
        this.moved += count;
        this.left = left;
        if (!owned) {
            return;
        }
        boolean news = moved != movedAtLastLog || left > 0;
        if (news && (!logged || now - lastLogNanos >= LOG_INTERVAL_NANOS)) {
            LOG.info("Migration from RDelayedQueue {} to queue {}: {} messages moved, {} left", legacy, queue, moved, left);
            logged = true;
            lastLogNanos = now;
            movedAtLastLog = moved;
        }
        if (left == 0 && !emptyAnnounced) {
            emptyAnnounced = true;
            LOG.info("RDelayedQueue {} is empty: {} messages moved to queue {}; late writes to it are moved until the route "
                     + "stops",
                    legacy, moved, queue);
        }
    }

    /**
     * Records a step refused because the legacy queue is migrated into {@code otherQueue} (its consumers name it in
     * {@code migrateFrom} too): said once as an ERROR, until a step of this migration moves messages again.
     *
     * @param left what the legacy queue holds
     */
    public synchronized void refused(String otherQueue, long left) {
        steppedAtNanos = nanoClock.getAsLong();
        this.owned = false;
        this.left = left;
        if (!refusalAnnounced) {
            refusalAnnounced = true;
            LOG.error("Migration from RDelayedQueue {} to queue {} refused: it is migrated into queue {}, whose consumers "
                      + "name it in migrateFrom too (and claimed it within the last {} minutes). Its messages would be "
                      + "split between the two queues: name it in migrateFrom of one queue only. To migrate it into queue "
                      + "{} instead, stop the migration into queue {}: this one starts {} minutes after its last claim",
                    legacy, queue, otherQueue, LegacyDelayedQueue.INTO_KEPT_MS / 60_000, queue, otherQueue,
                    LegacyDelayedQueue.INTO_KEPT_MS / 60_000);
        }
    }

    /**
     * The statistics of the migrations into one queue by name, for the {@code stats} operation: the legacy queues'
     * names (comma-separated, when several are migrated into it), messages moved in all, what the legacy queues hold in
     * all at their latest steps (-1 until each took its first), whether this JVM migrates any, and whether all are
     * empty. Several migrations of one legacy queue (consumer endpoints of the queue whose URIs differ, each naming it
     * in {@code migrateFrom}) count as one.
     */
    public static Map<String, Object> snapshot(Collection<MigrationProgress> migrations) {
        Map<String, LegacyStep> latestSteps = new TreeMap<>();
        long moved = 0;
        boolean active = false;
        for (MigrationProgress migration : migrations) {
            synchronized (migration) {
                moved += migration.moved;
                active |= migration.owned;
                latestSteps.merge(migration.legacy, new LegacyStep(migration.left, migration.steppedAtNanos),
                        LegacyStep::later);
            }
        }
        long left = 0;
        for (LegacyStep step : latestSteps.values()) {
            left = left < 0 || step.left() < 0 ? -1 : left + step.left();
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("migrateFrom", String.join(",", latestSteps.keySet()));
        stats.put("migrationMoved", moved);
        stats.put("migrationLeft", left);
        stats.put("migrationActive", active);
        stats.put("migrationEmpty", left == 0);
        return stats;
    }

    /** What a legacy queue held at a migration's step ({@code -1} before its first), and when that step was. */
    private record LegacyStep(long left, long atNanos) {

        LegacyStep later(LegacyStep other) {
            if (left < 0) {
                return other;
            }
            return other.left >= 0 && other.atNanos - atNanos > 0 ? other : this;
        }
    }

    public synchronized long moved() {
        return moved;
    }

    /** What the legacy queue held at the last step, or -1 before the first. */
    public synchronized long left() {
        return left;
    }
}
