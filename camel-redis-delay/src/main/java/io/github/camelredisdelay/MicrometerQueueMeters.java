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
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.github.camelredisdelay.internal.QueueEvents;
import io.github.camelredisdelay.internal.QueueSnapshot;
import io.github.camelredisdelay.internal.QueueStatistics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Micrometer meters of one queue in one CamelContext, registered in the {@link MeterRegistry} found in the Camel
 * registry as camel-micrometer finds it ({@link MeterRegistryChoice}), tagged {@code camelContext}, {@code keyPrefix}
 * and {@code queue}. Gauges read the queue's shared snapshot ({@link QueueStatistics#snapshotForMonitoring()}), so
 * reading them costs at most one refresh per queue every {@link QueueStatistics#MAX_AGE_MS} ms; a gauge whose refresh
 * fails, or is not answered in time, reads NaN. A second binding handed meters another binding holds (the same context
 * name, key prefix and queue over another Redis connection or through another component, or tags a MeterFilter merged)
 * waits, with a warning, and takes the meters over when the holder stops. With {@link MeterRegistryChoice}, the only
 * class that references Micrometer.
 */
final class MicrometerQueueMeters implements QueueEvents {

    private static final String PREFIX = "camel.redis.delay.";
    /**
     * The largest lateness the histogram's buckets tell apart. Micrometer's default for timers, 30 s, would make
     * Prometheus' {@code histogram_quantile} read every later delivery (consumers down for minutes) as 30 s late.
     */
    private static final Duration LATENESS_BUCKETS_MAX = Duration.ofDays(1);

    private static final Logger LOG = LoggerFactory.getLogger(MicrometerQueueMeters.class);
    /** Held while a binding checks its meters are free and takes them, or gives them up. */
    private static final Object BINDING = new Object();
    /**
     * The bindings waiting for meters, by the {@code scheduled} counter of the binding that holds them, by identity: a
     * registry hands the same meter back for the same id after its filters, whichever tags it was asked for. Guarded by
     * {@link #BINDING}.
     */
    private static final Map<Meter, Deque<Waiting>> HOLDERS = new IdentityHashMap<>();

    private final MeterRegistry registry;
    private final Tags tags;
    private final List<Meter> meters = new ArrayList<>();
    private final Counter scheduled;
    private final Counter delivered;
    private final Counter retried;
    private final Counter deadLettered;
    private final Counter reclaimed;
    private final Counter cancelled;
    private final Timer lateness;

    private MicrometerQueueMeters(MeterRegistry registry, Tags tags, QueueStatistics statistics, Counter scheduled) {
        this.registry = registry;
        this.tags = tags;
        this.scheduled = scheduled;
        meters.add(scheduled);
        gauge(statistics, "scheduled", snapshot -> snapshot.counts().scheduled());
        gauge(statistics, "ready", snapshot -> snapshot.counts().ready());
        gauge(statistics, "inflight", snapshot -> snapshot.counts().inFlight());
        gauge(statistics, "dead", QueueSnapshot::deadLettered);
        meters.add(Gauge.builder(PREFIX + "oldest.overdue", statistics,
                read(snapshot -> snapshot.counts().oldestOverdueMs() / 1000.0))
                .description("Seconds since the oldest due but unfetched message was due; 0 when none is overdue")
                .baseUnit("seconds").tags(tags).register(registry));
        delivered = counter("delivered", "Deliveries handed to a route, or taken by a ConsumerTemplate or pollEnrich");
        retried = counter("retried", "Failed deliveries put back on schedule");
        deadLettered = counter("dead.lettered", "Messages moved to the dead-letter queue");
        reclaimed = counter("reclaimed", "Leases taken over from a consumer that stopped answering");
        cancelled = counter("cancelled", "Scheduled messages cancelled");
        lateness = Timer.builder(PREFIX + "lateness").description("Delivery time minus due time, both on Redis' clock")
                .tags(tags).publishPercentileHistogram().maximumExpectedValue(LATENESS_BUCKETS_MAX).register(registry);
        meters.add(lateness);
    }

    /**
     * The meters of a queue; {@link QueueEvents#NONE} when the Camel registry holds no MeterRegistry, or several
     * without a choice ({@link MeterRegistryChoice}); a listener that waits for the meters when another binding holds
     * those the registry hands out for this queue.
     */
    static QueueEvents bind(CamelContext context, String keyPrefix, QueueStatistics statistics) {
        MeterRegistry registry = MeterRegistryChoice.of(context.getRegistry(), statistics.queueName());
        if (registry == null) {
            return QueueEvents.NONE;
        }
        Tags tags = Tags.of("camelContext", context.getName(), "keyPrefix", keyPrefix, "queue", statistics.queueName());
        synchronized (BINDING) {
            Counter scheduled = scheduledCounter(registry, tags);
            Deque<Waiting> line = HOLDERS.get(scheduled);
            if (line == null) {
                return hold(registry, tags, statistics, scheduled, new ArrayDeque<>());
            }
            LOG.warn("Queue '{}' (key prefix '{}') of CamelContext {} already has its meters, bound for the same queue"
                     + " over another Redis connection, through another redis-delay component, or in another"
                     + " CamelContext of the same name (or a MeterFilter of the registry merged their tags). They"
                     + " measure that one's endpoints; this one's are measured only once that one stops. Give the"
                     + " queues distinct key prefixes, the contexts distinct names, or the endpoints one component and"
                     + " connection.",
                    statistics.queueName(), keyPrefix, context.getName());
            Waiting waiting = new Waiting(registry, tags, statistics, line);
            line.add(waiting);
            return waiting;
        }
    }

    private static Counter scheduledCounter(MeterRegistry registry, Tags tags) {
        return Counter.builder(PREFIX + "scheduled").description("Messages stored by schedules").tags(tags)
                .register(registry);
    }

    /** Registers the meters of {@code statistics}, with {@code waiting} in line for them. Under {@link #BINDING}. */
    private static MicrometerQueueMeters hold(
            MeterRegistry registry, Tags tags, QueueStatistics statistics, Counter scheduled, Deque<Waiting> waiting) {
        HOLDERS.put(scheduled, waiting);
        return new MicrometerQueueMeters(registry, tags, statistics, scheduled);
    }

    private void gauge(QueueStatistics statistics, String state, ToDoubleFunction<QueueSnapshot> value) {
        meters.add(Gauge.builder(PREFIX + "messages", statistics, read(value))
                .description("Messages of the queue by state").tags(tags).tag("state", state).register(registry));
    }

    private static ToDoubleFunction<QueueStatistics> read(ToDoubleFunction<QueueSnapshot> value) {
        return statistics -> {
            try {
                return value.applyAsDouble(statistics.snapshotForMonitoring());
            } catch (RuntimeException e) {
                // Redis does not answer: no figure rather than a wrong one
                return Double.NaN;
            }
        };
    }

    private Counter counter(String name, String description) {
        Counter counter = Counter.builder(PREFIX + name).description(description).tags(tags).register(registry);
        meters.add(counter);
        return counter;
    }

    @Override
    public void scheduled(int messages) {
        scheduled.increment(messages);
    }

    @Override
    public void delivered(long latenessMs) {
        delivered.increment();
        lateness.record(Duration.ofMillis(Math.max(0, latenessMs)));
    }

    @Override
    public void retried() {
        retried.increment();
    }

    @Override
    public void deadLettered() {
        deadLettered.increment();
    }

    @Override
    public void reclaimed(int messages) {
        reclaimed.increment(messages);
    }

    @Override
    public void cancelled() {
        cancelled.increment();
    }

    @Override
    public void close() {
        synchronized (BINDING) {
            Deque<Waiting> waiting = HOLDERS.remove(scheduled);
            meters.forEach(registry::remove);
            Waiting next = waiting == null ? null : waiting.poll();
            if (next != null) {
                next.takeOver();
            }
        }
    }

    /** A binding in line for meters another one holds: listens to nothing until it takes them over. */
    private static final class Waiting implements QueueEvents {
        private final MeterRegistry registry;
        private final Tags tags;
        private final QueueStatistics statistics;
        private final Deque<Waiting> line;
        /** The meters taken over; guarded by {@link #BINDING}. */
        private MicrometerQueueMeters taken;

        private Waiting(MeterRegistry registry, Tags tags, QueueStatistics statistics, Deque<Waiting> line) {
            this.registry = registry;
            this.tags = tags;
            this.statistics = statistics;
            this.line = line;
        }

        /** Binds the meters the holder gave up, with the rest of the line waiting for them. Under {@link #BINDING}. */
        private void takeOver() {
            taken = hold(registry, tags, statistics, scheduledCounter(registry, tags), line);
            statistics.events(taken);
        }

        /** Leaves the line; closes the meters taken over when its statistics were released as they were handed over. */
        @Override
        public void close() {
            synchronized (BINDING) {
                if (taken != null) {
                    taken.close();
                } else {
                    line.remove(this);
                }
            }
        }
    }
}
