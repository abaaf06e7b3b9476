package io.github.camelredisdelay.example;

/**
 * How the simulated customer of an order behaves, so one run shows every outcome within a minute: orders 1, 3,
 * 5... are paid in time, orders 2, 6, 10... are paid after they expired, orders 4, 8, 12... are never paid.
 */
enum Customer {
    PAYS_IN_TIME,
    PAYS_LATE,
    NEVER_PAYS;

    static Customer of(long orderNumber) {
        if (orderNumber % 2 == 1) {
            return PAYS_IN_TIME;
        }
        return orderNumber % 4 == 2 ? PAYS_LATE : NEVER_PAYS;
    }
}
