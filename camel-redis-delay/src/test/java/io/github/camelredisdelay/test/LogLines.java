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
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects what one class logs, as "LEVEL message" lines with the thread that logged each, while it is open.
 */
public final class LogLines implements AutoCloseable {

    private final Logger logger;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final AbstractAppender appender;
    /** The logger's level before it was lowered while open, or {@code null} when it was left as it was. */
    private final Level levelBefore;

    private LogLines(String loggerName, Level level) {
        this.logger = (Logger) LogManager.getLogger(loggerName);
        this.appender = new AbstractAppender("test-" + loggerName, null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(new Line(
                        event.getLevel() + " " + event.getMessage().getFormattedMessage(),
                        event.getThreadName()));
            }
        };
        appender.start();
        logger.addAppender(appender);
        this.levelBefore = level != null ? logger.getLevel() : null;
        if (level != null) {
            logger.setLevel(level);
        }
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

    /** The names of the threads that logged the lines so far containing {@code text}, one per line. */
    public List<String> threadsLogging(String text) {
        return lines.stream().filter(line -> line.text().contains(text)).map(Line::thread).toList();
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        appender.stop();
        if (levelBefore != null) {
            logger.setLevel(levelBefore);
        }
    }

    private record Line(String text, String thread) {
    }
}
