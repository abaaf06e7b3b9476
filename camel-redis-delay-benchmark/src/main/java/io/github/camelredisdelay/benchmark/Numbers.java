package io.github.camelredisdelay.benchmark;

import java.util.Locale;

/** Rounding and formatting of measured values. */
final class Numbers {

    private Numbers() {
    }

    static double round(double value, int decimals) {
        double factor = Math.pow(10, decimals);
        return Math.round(value * factor) / factor;
    }

    /** Three significant digits for small values, whole numbers with thousands separators for large ones. */
    static String format(Double value) {
        if (value == null || value.isNaN()) {
            return "–";
        }
        double magnitude = Math.abs(value);
        if (magnitude >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.2f", value);
    }

    static double perSecond(long count, long nanos) {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }
}
