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
import java.util.List;
import java.util.Locale;

/** A small SVG document written by hand: lines, rectangles, polylines and text, in pixels from the top left. */
final class Svg {

    private final int width;
    private final int height;
    private final StringBuilder body = new StringBuilder();

    Svg(int width, int height) {
        this.width = width;
        this.height = height;
    }

    /** @param dash an SVG dash pattern such as {@code "6 3"}, or null for a solid line */
    Svg line(double x1, double y1, double x2, double y2, String stroke, double strokeWidth, String dash) {
        body.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"%s/>%n",
                x1, y1, x2, y2, stroke(stroke, strokeWidth, dash)));
        return this;
    }

    Svg rect(double x, double y, double w, double h, String fill) {
        body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>%n",
                x, y, Math.max(0, w), Math.max(0, h), fill));
        return this;
    }

    /** @param points {x, y} pairs */
    Svg polyline(List<double[]> points, String stroke, double strokeWidth, String dash) {
        body.append("<polyline fill=\"none\"").append(stroke(stroke, strokeWidth, dash)).append(" points=\"");
        points.forEach(p -> body.append(String.format(Locale.ROOT, "%.1f,%.1f ", p[0], p[1])));
        body.append("\"/>\n");
        return this;
    }

    /** @param anchor {@code start}, {@code middle} or {@code end} */
    Svg text(double x, double y, String text, int size, String anchor, String fill) {
        body.append(String.format(Locale.ROOT,
                "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" fill=\"%s\">%s</text>%n",
                x, y, size, anchor, fill, escape(text)));
        return this;
    }

    void write(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, toString());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                                          + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">%n<rect width=\"100%%\" height=\"100%%\" "
                                          + "fill=\"white\"/>%n%s</svg>%n",
                width, height, width, height, body);
    }

    private static String stroke(String stroke, double strokeWidth, String dash) {
        return String.format(Locale.ROOT, " stroke=\"%s\" stroke-width=\"%.1f\"%s", stroke, strokeWidth,
                dash == null ? "" : " stroke-dasharray=\"" + dash + "\"");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
