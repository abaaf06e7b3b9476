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

import java.util.ArrayList;
import java.util.List;

/**
 * The lateness distribution of P1 and P4, both sides: the share of a run's messages delivered at most x ms late, x on a
 * log scale. A curve ends below 1 when messages were not delivered within the run's bound.
 */
final class LatenessCdfChart {

    /** Lateness at or below this (ms) is drawn at the axis' start: a log axis has no zero. */
    private static final double FLOOR_MS = 0.01;
    private static final int MAX_POINTS = 400;
    private static final int WIDTH = 760;
    private static final double LEGEND_LINE = 18;
    private static final double LEFT = 70;
    private static final double RIGHT = WIDTH - 30;
    private static final double TOP = 50;
    private static final double BOTTOM = 360;

    /**
     * One run's lateness.
     *
     * @param scenario     e.g. "P1"
     * @param sortedMicros the lateness of each delivered message, µs, lowest first
     * @param expected     messages sent
     */
    record Curve(String scenario, Side side, long[] sortedMicros, int expected) {
    }

    private LatenessCdfChart() {
    }

    static Svg draw(List<Curve> curves) {
        double high = curves.stream().filter(c -> c.sortedMicros().length > 0)
                .mapToDouble(c -> c.sortedMicros()[c.sortedMicros().length - 1] / 1000.0).max().orElse(1);
        LogAxis x = LogAxis.spanning(FLOOR_MS, high, LEFT, RIGHT);
        Svg svg = new Svg(WIDTH, (int) (BOTTOM + 70 + LEGEND_LINE * curves.size()));
        svg.text(WIDTH / 2.0, 28, "Lateness distribution: share of messages delivered at most x ms late", 16,
                "middle", "black");
        for (double decade : x.decades()) {
            svg.line(x.pixel(decade), TOP, x.pixel(decade), BOTTOM, "#dddddd", 1, null);
            svg.text(x.pixel(decade), BOTTOM + 18, LogAxis.label(decade), 12, "middle", "black");
        }
        for (int tenth = 0; tenth <= 10; tenth += 2) {
            double y = y(tenth / 10.0);
            svg.line(LEFT, y, RIGHT, y, "#dddddd", 1, null);
            svg.text(LEFT - 8, y + 4, String.valueOf(tenth / 10.0), 12, "end", "black");
        }
        svg.line(LEFT, BOTTOM, RIGHT, BOTTOM, "black", 1, null).line(LEFT, TOP, LEFT, BOTTOM, "black", 1, null);
        svg.text((LEFT + RIGHT) / 2, BOTTOM + 40, "lateness (ms, log scale; ≤ " + FLOOR_MS + " ms drawn at "
                                                  + FLOOR_MS + ")",
                13, "middle", "black");
        List<String> scenarios = curves.stream().map(Curve::scenario).distinct().toList();
        double legendY = BOTTOM + 70;
        for (Curve curve : curves) {
            String dash = dash(scenarios.indexOf(curve.scenario()));
            svg.polyline(points(curve, x), color(curve.side()), 2, dash);
            svg.line(LEFT, legendY - 4, LEFT + 40, legendY - 4, color(curve.side()), 2, dash);
            svg.text(LEFT + 50, legendY, legend(curve), 12, "start", "black");
            legendY += LEGEND_LINE;
        }
        return svg;
    }

    private static List<double[]> points(Curve curve, LogAxis x) {
        long[] sorted = curve.sortedMicros();
        List<double[]> points = new ArrayList<>();
        int step = Math.max(1, sorted.length / MAX_POINTS);
        for (int i = 0; i < sorted.length; i += step) {
            points.add(new double[] { x.pixel(sorted[i] / 1000.0), y((i + 1) / (double) curve.expected()) });
        }
        if (sorted.length > 0) {
            points.add(new double[] {
                    x.pixel(sorted[sorted.length - 1] / 1000.0),
                    y(sorted.length / (double) curve.expected()) });
        }
        return points;
    }

    private static String legend(Curve curve) {
        Percentiles lateness = Percentiles.ofMicros(curve.sortedMicros());
        return String.format("%s %s: p50 %s, p99 %s, max %s ms; %,d of %,d delivered", curve.scenario(),
                curve.side().label(), Numbers.format(lateness.p50()), Numbers.format(lateness.p99()),
                Numbers.format(lateness.max()), curve.sortedMicros().length, curve.expected());
    }

    private static double y(double share) {
        return BOTTOM - share * (BOTTOM - TOP);
    }

    static String color(Side side) {
        return side == Side.OURS ? "#1f77b4" : "#e6550d";
    }

    /** Solid for the first scenario, dashed for the next. */
    private static String dash(int scenario) {
        return scenario == 0 ? null : "7 4";
    }
}
