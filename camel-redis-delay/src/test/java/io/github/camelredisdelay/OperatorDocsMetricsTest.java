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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every series and label the alerting rules and the Grafana dashboard that come with the project query is in a real
 * Prometheus scrape after traffic: none of them stays empty, or never fires, for a name, label or state the component
 * does not publish.
 */
@CamelSide
class OperatorDocsMetricsTest extends RedisDelayTestSupport {

    private static final Pattern METRIC = Pattern.compile("camel_redis_delay_\\w+");
    /** A label a query groups by or selects on; {@code le} and {@code state} included. */
    private static final Pattern LABELS = Pattern.compile("(?:by \\(([^)]*)\\))|(\\w+)=~?\\\\?\"");
    private static final Pattern STATE = Pattern.compile("state=\\\\?\"(\\w+)\\\\?\"");

    private final List<String> delivered = new CopyOnWriteArrayList<>();

    @ParameterizedTest
    @ValueSource(strings = { "prometheus-alerts.yml", "grafana-dashboard.json" })
    void everySeriesLabelAndStateTheOperatorFilesQueryIsScraped(String file) throws Exception {
        String queries = Files.readString(Path.of("..", "docs", file));
        String scrape = scrapeAfterTraffic();

        Set<String> metrics = found(METRIC, queries, 0);
        assertThat(metrics).isNotEmpty();
        for (String metric : metrics) {
            List<String> series = scrape.lines().filter(line -> line.startsWith(metric + "{")).toList();
            assertThat(series).as("series of " + metric + " that " + file + " queries").isNotEmpty();
            for (String label : labels(queries)) {
                // a state selects one series of the messages gauge: checked below
                if (!"state".equals(label) && (!"le".equals(label) || metric.endsWith("_bucket"))) {
                    assertThat(series).as(label + " on " + metric).allMatch(line -> line.contains(label + "=\""));
                }
            }
        }
        for (String state : found(STATE, queries, 1)) {
            assertThat(scrape).as("state " + state).contains("state=\"" + state + "\"");
        }
    }

    /** A schedule, a delivery, a cancel: every meter of the queue has a value. */
    private String scrapeAfterTraffic() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:jobs").process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        });
        node.getRegistry().bind("metricsRegistry", registry);
        node.start();
        node.createProducerTemplate().sendBody("redis-delay:jobs?delay=50", "job");
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs?delay=1h", "later",
                RedisDelayConstants.MESSAGE_ID, "later");
        node.createProducerTemplate().sendBodyAndHeader("redis-delay:jobs?operation=cancel", null,
                RedisDelayConstants.MESSAGE_ID, "later");
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() == 1);
        return registry.scrape();
    }

    private static Set<String> labels(String queries) {
        Set<String> labels = new TreeSet<>();
        Matcher matcher = LABELS.matcher(queries);
        while (matcher.find()) {
            if (matcher.group(1) != null) {
                for (String label : matcher.group(1).split(",")) {
                    labels.add(label.trim());
                }
            } else {
                labels.add(matcher.group(2));
            }
        }
        labels.remove("");
        return labels;
    }

    private static Set<String> found(Pattern pattern, String text, int group) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group(group));
        }
        return found;
    }
}
