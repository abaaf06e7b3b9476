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
package io.github.camelredisdelay.docs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sections of the component page show the code of a test as it runs: the lines between its {@code tag::snippet[]} and
 * {@code end::snippet[]} comments, without the indentation they have in the test.
 */
class ComponentPageSnippetsTest {

    private static final Path PAGE = Path.of("src/main/docs/redis-delay-component.adoc");
    private static final Path TESTS = Path.of("src/test/java/io/github/camelredisdelay/docs");

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "=== Scheduling beside a database write | ScheduleBesideADatabaseWriteTest.java",
            "=== Testing routes that use redis-delay | OrderExpiryRouteTest.java" })
    void theSectionShowsTheSnippetThatRuns(String section, String test) throws IOException {
        String source = Files.readString(TESTS.resolve(test), StandardCharsets.UTF_8);
        String tagged = source.substring(source.indexOf('\n', source.indexOf("// tag::snippet[]")) + 1,
                source.lastIndexOf('\n', source.indexOf("// end::snippet[]")) + 1);
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);

        assertThat(page).contains(section);
        String shown = page.substring(page.indexOf(section));
        assertThat(shown).contains("[source,java]\n----\n" + unindented(tagged) + "----\n");
    }

    /** The lines less the indentation of the first. */
    private static String unindented(String lines) {
        int indentation = lines.length() - lines.stripLeading().length();
        return lines.lines().map(line -> line.length() >= indentation ? line.substring(indentation) : line)
                .reduce("", (text, line) -> text + line + "\n");
    }
}
