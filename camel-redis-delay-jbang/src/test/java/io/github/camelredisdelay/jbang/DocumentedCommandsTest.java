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
package io.github.camelredisdelay.jbang;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code camel ...} command the README, the guides and the component page name in running text is a command of
 * the Camel JBang this module runs: {@code camel <command> --help} shows that command's usage, not the list of commands
 * Camel JBang prints for a word it does not know.
 */
class DocumentedCommandsTest {

    /** A command in backticks: {@code camel}, then its words up to the first option, if any. */
    private static final Pattern COMMAND = Pattern.compile("`camel ((?:[a-z][a-z-]*)(?: [a-z][a-z-]*)*)[^`]*`");
    /** The command a usage line describes: the words after {@code Usage: camel} before its options and arguments. */
    private static final Pattern USAGE = Pattern.compile("Usage: camel((?: [a-z][a-z-]*)*)");

    static Stream<String> documentedCommands() throws IOException {
        List<Path> pages = new ArrayList<>(
                List.of(Path.of("../README.md"),
                        Path.of("../camel-redis-delay/src/main/docs/redis-delay-component.adoc")));
        try (Stream<Path> guides = Files.list(Path.of("../docs"))) {
            guides.filter(page -> page.toString().endsWith(".md")).forEach(pages::add);
        }
        TreeSet<String> commands = new TreeSet<>();
        for (Path page : pages) {
            Matcher command = COMMAND.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (command.find()) {
                commands.add(command.group(1));
            }
        }
        assertThat(commands).isNotEmpty();
        return commands.stream();
    }

    @ParameterizedTest
    @MethodSource("documentedCommands")
    void everyCamelCommandTheDocsNameIsACommandOfCamelJBang(String command) throws Exception {
        String usage = help(command);

        Matcher described = USAGE.matcher(usage);
        assertThat(described.find()).as("usage of camel %s:%n%s", command, usage).isTrue();
        List<String> words = Arrays.asList(command.split(" "));
        List<String> known = Arrays.asList(described.group(1).strip().split(" "));
        assertThat(described.group(1)).as("camel %s is no command of Camel JBang:%n%s", command, usage).isNotBlank();
        assertThat(words).as("camel %s:%n%s", command, usage).startsWith(known.toArray(String[]::new));
        assertThat(usage).doesNotContain("Unmatched argument");
    }

    /** The output of {@code camel <command> --help}, run in its own JVM (Camel JBang exits the JVM when done). */
    private static String help(String command) throws Exception {
        List<String> line = new ArrayList<>(
                List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                        System.getProperty("java.class.path"), CamelJBangLauncher.class.getName()));
        line.addAll(Arrays.asList(command.split(" ")));
        line.add("--help");
        Process camel = new ProcessBuilder(line).redirectErrorStream(true).start();
        try {
            String output = new String(camel.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(camel.waitFor(60, TimeUnit.SECONDS)).as("camel %s --help ended", command).isTrue();
            return output;
        } finally {
            camel.destroyForcibly();
        }
    }
}
