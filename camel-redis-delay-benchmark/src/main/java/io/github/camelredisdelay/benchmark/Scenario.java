package io.github.camelredisdelay.benchmark;

/** One benchmark scenario: runs both sides and adds its rows to the report. */
interface Scenario {

    /** The id used in the table and by {@code -Dbench.only}, e.g. {@code P1}. */
    String id();

    /** One line saying what it measures. */
    String title();

    void run(Bench bench);
}
