package io.github.camelredisdelay.internal;

import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;

/**
 * Logs a Redis outage once when it starts and once when it ends, however often a loop retries in between, so a
 * Redis that is down does not flood the log.
 */
public final class OutageLog {

    private final Logger log;
    private final String what;
    private final AtomicBoolean down = new AtomicBoolean();

    /**
     * @param what names the looping activity in the messages, e.g. "Transfer task of queue orders"
     */
    public OutageLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    public void failed(Throwable cause) {
        if (down.compareAndSet(false, true)) {
            log.warn("{} cannot reach Redis, retrying with back-off: {}", what, cause.toString());
        } else {
            log.debug("{} still cannot reach Redis: {}", what, cause.toString());
        }
    }

    public void succeeded() {
        if (down.get() && down.compareAndSet(true, false)) {
            log.info("{} reaches Redis again", what);
        }
    }

    public boolean isDown() {
        return down.get();
    }
}
