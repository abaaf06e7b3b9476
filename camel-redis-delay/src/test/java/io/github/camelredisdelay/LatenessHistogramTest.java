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
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.camelredisdelay.migration.LegacyKeys;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lateness histogram as Prometheus reads it: the dashboard's and the alert's {@code histogram_quantile} over
 * {@code camel_redis_delay_lateness_seconds_bucket}.
 */
@CamelSide
class LatenessHistogramTest extends RedisDelayTestSupport {

    private static final Pattern BUCKET
            = Pattern.compile("camel_redis_delay_lateness_seconds_bucket\\{[^}]*le=\"([^\"]+)\"} (\\S+)");

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @Test
    void aDeliveryMoreThanThirtySecondsLateShowsItsLatenessInTheDashboardsQuantile() throws Exception {
        // a message of an RDelayedQueue that was due a minute ago: migrated with its due time, delivered a minute late
        String legacy = "legacy-" + UUID.randomUUID().toString().substring(0, 8);
        new LegacyKeys(legacy, keyPrefix).offerDueAt(redis(), "job", System.currentTimeMillis() - 60_000);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs?migrateCodec=string&migrateFrom=" + legacy)
                        .process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        node.getRegistry().bind("metricsRegistry", registry);
        node.start();

        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        await().atMost(Duration.ofSeconds(5))
                .until(() -> registry.get("camel.redis.delay.lateness").timer().count() == 1);

        double p99 = histogramQuantile(0.99, registry.scrape());
        assertThat(p99).as("p99 lateness in seconds, as histogram_quantile reads the buckets").isGreaterThanOrEqualTo(35);
    }

    /**
     * Prometheus' {@code histogram_quantile} over the lateness buckets of one series: linear within the bucket the rank
     * falls in; the upper bound of the highest finite bucket when it falls in the {@code +Inf} one.
     */
    private static double histogramQuantile(double quantile, String scrape) {
        List<double[]> buckets = scrape.lines().map(BUCKET::matcher).filter(Matcher::matches)
                .map(m -> new double[] {
                        "+Inf".equals(m.group(1)) ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(1)),
                        Double.parseDouble(m.group(2)) })
                .sorted(Comparator.comparingDouble(bucket -> bucket[0])).toList();
        assertThat(buckets).as("lateness buckets in the scrape").isNotEmpty();
        double rank = quantile * buckets.get(buckets.size() - 1)[1];
        double lower = 0;
        double below = 0;
        for (double[] bucket : buckets) {
            if (bucket[1] >= rank) {
                if (Double.isInfinite(bucket[0])) {
                    return lower;
                }
                return lower + (bucket[0] - lower) * (rank - below) / (bucket[1] - below);
            }
            lower = bucket[0];
            below = bucket[1];
        }
        return Double.NaN;
    }
}
