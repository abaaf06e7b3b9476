package io.github.camelredisdelay.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;

class OutageLogTest {

    /** Collects WARN and INFO lines. */
    static final class Lines extends AbstractLogger {
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args, Throwable t) {
            if (level == Level.WARN || level == Level.INFO) {
                lines.add(level + " " + pattern);
            }
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isTraceEnabled(Marker marker) {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled(Marker marker) {
            return true;
        }
    }

    @Test
    void anOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines, "Consumer of queue q");

        for (int i = 0; i < 100; i++) {
            outage.failed(new IOException("refused"));
        }
        outage.succeeded();
        outage.succeeded();

        assertThat(lines.lines).hasSize(2);
        assertThat(lines.lines.get(0)).startsWith("WARN");
        assertThat(lines.lines.get(1)).startsWith("INFO");
    }

    @Test
    void aFlappingConnectionIsReportedOnceAMinute() {
        Lines lines = new Lines();
        OutageLog outage = new OutageLog(lines, "Consumer of queue q");

        for (int i = 0; i < 50; i++) {
            outage.failed(new IOException("closed"));
            outage.succeeded();
        }

        assertThat(lines.lines).hasSize(2);
        assertThat(outage.isDown()).isFalse();
    }
}
