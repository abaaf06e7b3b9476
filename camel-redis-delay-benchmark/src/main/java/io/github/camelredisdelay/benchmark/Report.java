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
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;

/**
 * Collects the result rows and lateness distributions; prints the rows as a Markdown table and writes them, with the
 * machine, as JSON, and the charts as SVG.
 */
final class Report {

    private final List<ResultRow> rows = new ArrayList<>();
    private final Map<String, String> failures = new LinkedHashMap<>();
    private final List<LatenessCdfChart.Curve> curves = new ArrayList<>();

    synchronized void add(ResultRow row) {
        rows.add(row);
        System.out.printf("  => %s %s: ours %s, RDelayedQueue %s%n", row.id(), row.scenario(),
                Numbers.format(row.ours()), Numbers.format(row.theirs()));
    }

    synchronized void addCurve(LatenessCdfChart.Curve curve) {
        curves.add(curve);
    }

    synchronized void failed(String scenarioId, Throwable error) {
        failures.put(scenarioId, String.valueOf(error));
    }

    /** The first row with this id and scenario text prefix, e.g. the P1 p99 row that P4 compares with. */
    synchronized Optional<ResultRow> find(String id, String scenarioPrefix) {
        return rows.stream().filter(row -> row.id().equals(id) && row.scenario().startsWith(scenarioPrefix)).findFirst();
    }

    synchronized String markdown() {
        StringBuilder table = new StringBuilder();
        table.append("| id | scenario | ours (redis-delay) | RDelayedQueue | ratio ours/theirs | target | met? |\n");
        table.append("|---|---|---:|---:|---:|---|---|\n");
        for (ResultRow row : rows) {
            Boolean met = row.met();
            table.append("| ").append(row.id())
                    .append(" | ").append(row.scenario())
                    .append(" | ").append(Numbers.format(row.ours()))
                    .append(" | ").append(Numbers.format(row.theirs()))
                    .append(" | ").append(row.ratio() == null ? "–" : Numbers.format(row.ratio()) + "×")
                    .append(" | ").append(row.target().text())
                    .append(" | ").append(met == null ? "–" : met ? "yes" : "**no**")
                    .append(" |\n");
        }
        failures.forEach((id, error) -> table.append("| ").append(id).append(" | failed: ")
                .append(error.replace('|', '/').replace('\n', ' ')).append(" | | | | | |\n"));
        return table.toString();
    }

    synchronized void writeJson(Path file, Map<String, Object> machine, Map<String, Object> run) {
        JsonObject json = new JsonObject();
        json.put("machine", new JsonObject(machine));
        json.put("run", new JsonObject(run));
        List<Object> results = new ArrayList<>();
        for (ResultRow row : rows) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", row.id());
            entry.put("scenario", row.scenario());
            entry.put("ours", rounded(row.ours()));
            entry.put("rdelayedQueue", rounded(row.theirs()));
            entry.put("ratio", row.ratio() == null ? null : Numbers.round(row.ratio(), 3));
            entry.put("target", row.target().text());
            entry.put("met", row.met());
            entry.put("details", row.details());
            results.add(new JsonObject(entry));
        }
        json.put("results", results);
        json.put("failures", new JsonObject(new LinkedHashMap<>(failures)));
        write(file, Jsoner.prettyPrint(json.toJson()) + "\n");
    }

    /** The table as a Markdown file, e.g. next to the JSON file. */
    synchronized void writeMarkdown(Path file, String heading) {
        write(file, heading + "\n\n" + markdown());
    }

    /**
     * The lateness chart ({@code <base>-lateness.svg}) when P1 or P4 ran, the ratio chart ({@code <base>-ratios.svg})
     * when a throughput row has both sides.
     *
     * @return the files written
     */
    synchronized List<Path> writeCharts(Path directory, String base) {
        List<Path> written = new ArrayList<>();
        if (!curves.isEmpty()) {
            Path file = directory.resolve(base + "-lateness.svg");
            LatenessCdfChart.draw(curves).write(file);
            written.add(file);
        }
        List<ResultRow> ratios = RatioBarChart.drawn(rows);
        if (!ratios.isEmpty()) {
            Path file = directory.resolve(base + "-ratios.svg");
            RatioBarChart.draw(ratios).write(file);
            written.add(file);
        }
        return written;
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    private static Double rounded(Double value) {
        return value == null || value.isNaN() || value.isInfinite() ? null : Numbers.round(value, 3);
    }
}
