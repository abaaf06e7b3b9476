package io.github.camelredisdelay.test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects what one class logs, as "LEVEL message" lines, while it is open.
 */
public final class LogLines implements AutoCloseable {

    private final Logger logger;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AbstractAppender appender;

    private LogLines(Class<?> source) {
        this.logger = (Logger) LogManager.getLogger(source);
        this.appender = new AbstractAppender("test-" + source.getSimpleName(), null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
            }
        };
        appender.start();
        logger.addAppender(appender);
    }

    /** Starts collecting what {@code source} logs. */
    public static LogLines of(Class<?> source) {
        return new LogLines(source);
    }

    /** The lines so far. */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        appender.stop();
    }
}
