package io.github.camelredisdelay.benchmark;

/**
 * When a message becomes due: {@code millis} from now, or at the epoch millisecond {@code millis}.
 */
record Due(boolean absolute, long millis) {

    static Due in(long delayMillis) {
        return new Due(false, delayMillis);
    }

    static Due at(long epochMillis) {
        return new Due(true, epochMillis);
    }

    /** The delay from now; an instant in the past is due now. */
    long delayFromNow() {
        return absolute ? Math.max(0, millis - System.currentTimeMillis()) : millis;
    }

    /** The intended due time on this machine's clock. */
    long epochMillis() {
        return absolute ? millis : System.currentTimeMillis() + millis;
    }
}
