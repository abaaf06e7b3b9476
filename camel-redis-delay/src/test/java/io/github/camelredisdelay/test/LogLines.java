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
package io.github.camelredisdelay.test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects what one class logs, as "LEVEL message" lines with the thread that logged each, while it is open.
 * <p>
 * Its appender sits on a logger configuration of the logger's own name, added while it is open when the configuration
 * has none, additive, so that the lines still reach the console and any collector of a parent logger, and removed again
 * on close, so that it never changes where a later collector's lines go.
 */
public final class LogLines implements AutoCloseable {

    /** Makes each collector's appender name its own: a logger configuration keeps one appender per name. */
    private static final AtomicInteger COLLECTORS = new AtomicInteger();

    private final LoggerContext context;
    private final LoggerConfig config;
    /** Whether this collector added {@link #config} and removes it on close. */
    private final boolean added;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final AbstractAppender appender;
    /** The configuration's own level before it was lowered while open, when {@link #lowered}. */
    private final Level levelBefore;
    private final boolean lowered;

    private LogLines(String loggerName, Level level) {
        this.appender = new AbstractAppender(
                "test-" + loggerName + "-" + COLLECTORS.incrementAndGet(), null, null, true,
                Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(new Line(
                        event.getLevel(), event.getMessage().getFormattedMessage(), event.getThreadName(),
                        event.getContextData().toMap()));
            }
        };
        appender.start();
        this.context = (LoggerContext) LogManager.getContext(false);
        Configuration configuration = context.getConfiguration();
        LoggerConfig existing = configuration.getLoggerConfig(loggerName);
        this.added = !existing.getName().equals(loggerName);
        this.config = added ? new LoggerConfig(loggerName, null, true) : existing;
        if (added) {
            configuration.addLogger(loggerName, config);
        }
        config.addAppender(appender, null, null);
        this.lowered = level != null;
        this.levelBefore = config.getExplicitLevel();
        if (lowered) {
            config.setLevel(level);
        }
        context.updateLoggers();
    }

    /** Starts collecting what {@code source} logs. */
    public static LogLines of(Class<?> source) {
        return new LogLines(source.getName(), null);
    }

    /** Starts collecting what {@code source} logs, DEBUG lines too: its level is DEBUG while this is open. */
    public static LogLines ofDebug(Class<?> source) {
        return new LogLines(source.getName(), Level.DEBUG);
    }

    /** Starts collecting what the logger of this name logs (a class one cannot name, say). */
    public static LogLines of(String loggerName) {
        return new LogLines(loggerName, null);
    }

    /** The lines so far. */
    public List<String> lines() {
        return lines.stream().map(Line::text).toList();
    }

    /**
     * The messages so far, each after the values the MDC held for {@code keys} when it was logged, joined by "/":
     * {@code jobs/job-a Delivery 1 of ...} for the keys of the queue and the message id.
     */
    public List<String> messagesWithMdc(String... keys) {
        return lines.stream().map(line -> String.join("/", Stream.of(keys).map(line.mdc()::get).toList()) + " "
                                          + line.message())
                .toList();
    }

    /** The names of the threads that logged the lines so far containing {@code text}, one per line. */
    public List<String> threadsLogging(String text) {
        return lines.stream().filter(line -> line.text().contains(text)).map(Line::thread).toList();
    }

    @Override
    public void close() {
        config.removeAppender(appender.getName());
        if (added) {
            context.getConfiguration().removeLogger(config.getName());
        } else if (lowered) {
            config.setLevel(levelBefore);
        }
        context.updateLoggers();
        appender.stop();
    }

    private record Line(Level level, String message, String thread, Map<String, String> mdc) {

        String text() {
            return level + " " + message;
        }
    }
}
