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

    private LogLines(String loggerName) {
        this.logger = (Logger) LogManager.getLogger(loggerName);
        this.appender = new AbstractAppender("test-" + loggerName, null, null, true, Property.EMPTY_ARRAY) {
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
        return new LogLines(source.getName());
    }

    /** Starts collecting what the logger of this name logs (a class one cannot name, say). */
    public static LogLines of(String loggerName) {
        return new LogLines(loggerName);
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
