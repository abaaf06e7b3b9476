package io.github.camelredisdelay.benchmark;

import java.util.Map;

/** The outcome of a throughput measurement (schedules or a drain), as its table rows show it. */
interface RateOutcome {

    double perSecond();

    /** The messages {@link #perSecond()} counts: scheduled, or delivered. */
    long messages();

    RedisWindow.Usage usage();

    /** Everything measured, for the JSON file. */
    Map<String, Object> details();
}
