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

import java.util.List;

/**
 * The throughput ratios ours / RDelayedQueue of the rows with a ratio target, as bars from parity (1×) on a log scale,
 * to the right where ours is faster, each with its target marked; green where the target is met, red where not.
 */
final class RatioBarChart {

    private static final int WIDTH = 900;
    private static final double LEFT = 470;
    private static final double RIGHT = WIDTH - 110;
    private static final double TOP = 60;
    private static final double BAR = 18;
    private static final double GAP = 10;
    private static final int LABEL_CHARS = 72;

    private RatioBarChart() {
    }

    /** The rows it draws: throughput rows, whose target is a ratio to reach, with both sides measured. */
    static List<ResultRow> drawn(List<ResultRow> rows) {
        return rows.stream().filter(row -> row.target().kind() == Target.Kind.RATIO_AT_LEAST && row.ratio() != null)
                .toList();
    }

    static Svg draw(List<ResultRow> rows) {
        double low = rows.stream().mapToDouble(row -> Math.min(row.ratio(), row.target().bound())).min().orElse(1);
        double high = rows.stream().mapToDouble(row -> Math.max(row.ratio(), row.target().bound())).max().orElse(1);
        LogAxis x = LogAxis.spanning(Math.min(low, 1), Math.max(high, 1), LEFT, RIGHT);
        double bottom = TOP + rows.size() * (BAR + GAP);
        Svg svg = new Svg(WIDTH, (int) bottom + 80);
        svg.text(WIDTH / 2.0, 28, "Throughput ratio ours / RDelayedQueue (log scale); black mark: target", 16,
                "middle", "black");
        for (double decade : x.decades()) {
            svg.line(x.pixel(decade), TOP - 6, x.pixel(decade), bottom, "#dddddd", 1, null);
            svg.text(x.pixel(decade), bottom + 18, LogAxis.label(decade) + "×", 12, "middle", "black");
        }
        svg.line(x.pixel(1), TOP - 6, x.pixel(1), bottom, "#555555", 1, "4 3");
        double y = TOP;
        for (ResultRow row : rows) {
            boolean met = Boolean.TRUE.equals(row.met());
            double parity = x.pixel(1);
            double end = x.pixel(row.ratio());
            svg.rect(Math.min(parity, end), y, Math.abs(end - parity), BAR, met ? "#31a354" : "#de2d26");
            svg.line(x.pixel(row.target().bound()), y - 3, x.pixel(row.target().bound()), y + BAR + 3, "black", 3, null);
            svg.text(LEFT - 8, y + BAR - 5, label(row), 12, "end", "black");
            svg.text(x.pixel(Math.max(row.ratio(), row.target().bound())) + 6, y + BAR - 5,
                    Numbers.format(row.ratio()) + "× (" + row.target().text() + ")", 12, "start", "black");
            y += BAR + GAP;
        }
        svg.line(LEFT, bottom, RIGHT, bottom, "black", 1, null);
        svg.text((LEFT + RIGHT) / 2, bottom + 40, "ours / RDelayedQueue, msg/s; bars start at parity (dashed)", 13, "middle",
                "black");
        return svg;
    }

    private static String label(ResultRow row) {
        String text = row.id() + " " + row.scenario().replace(" (msg/s)", "");
        return text.length() <= LABEL_CHARS ? text : text.substring(0, LABEL_CHARS - 1) + "…";
    }
}
