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
package io.github.camelredisdelay.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * What one launch of {@code redis-server} wrote: its log file and its console (stdout and stderr, where argument errors
 * go before the log is open). Both files are shared by every launch in the same directory, so only what was appended
 * after {@link #mark} counts.
 */
final class LaunchOutput {

    private static final int TAIL_LINES = 20;

    private final Path logFile;
    private final long logStart;
    private final Path consoleFile;
    private final long consoleStart;

    private LaunchOutput(Path logFile, long logStart, Path consoleFile, long consoleStart) {
        this.logFile = logFile;
        this.logStart = logStart;
        this.consoleFile = consoleFile;
        this.consoleStart = consoleStart;
    }

    /** Remembers where both files end now, before the process starts writing. */
    static LaunchOutput mark(Path logFile, Path consoleFile) {
        return new LaunchOutput(logFile, sizeOf(logFile), consoleFile, sizeOf(consoleFile));
    }

    boolean mentions(String phrase) {
        return since(logFile, logStart).contains(phrase) || since(consoleFile, consoleStart).contains(phrase);
    }

    /** The last lines of the log and of the console, labelled, for an exception message. */
    String tail() {
        return "--- last lines of " + logFile.getFileName() + " ---\n" + lastLines(since(logFile, logStart))
               + "--- last lines of " + consoleFile.getFileName() + " ---\n"
               + lastLines(since(consoleFile, consoleStart));
    }

    private static String lastLines(String text) {
        List<String> lines = text.lines().toList();
        List<String> tail = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
        return tail.isEmpty() ? "(empty)\n" : String.join("\n", tail) + "\n";
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String since(Path file, long offset) {
        try (InputStream in = Files.newInputStream(file)) {
            in.skipNBytes(offset);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
