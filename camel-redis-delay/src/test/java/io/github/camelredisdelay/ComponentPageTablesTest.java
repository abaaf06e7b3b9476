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
package io.github.camelredisdelay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The option and header tables of the component page are generated from the catalog JSON that the build generates from
 * the code's annotations and Javadoc, so they cannot drift. This test fails when the page is stale; run it with
 * {@code -Ddocs.update=true} to rewrite each table between its START and END marker comments (for example
 * {@code // message-headers: START}).
 */
class ComponentPageTablesTest {

    private static final Path CATALOG = Path.of("src/generated/resources/META-INF/io/github/camelredisdelay/redis-delay.json");
    private static final Path PAGE = Path.of("src/main/docs/redis-delay-component.adoc");
    private static final String TABLE_HEAD = "[width=\"100%\",cols=\"2,5,^1,2\",options=\"header\"]\n|===\n"
                                             + "| Name | Description | Default | Type\n";

    @Test
    void optionAndHeaderTablesMatchTheCatalog() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        String generated = withGeneratedTables(page, catalog());
        if (Boolean.getBoolean("docs.update")) {
            Files.writeString(PAGE, generated, StandardCharsets.UTF_8);
            page = generated;
        }
        assertThat(page).as("%s is stale: run mvn test -Dtest=%s -Ddocs.update=true", PAGE, getClass().getSimpleName())
                .isEqualTo(generated);
    }

    private static JsonObject catalog() throws IOException {
        return (JsonObject) Jsoner.deserialize(Files.readString(CATALOG, StandardCharsets.UTF_8), new JsonObject());
    }

    static String withGeneratedTables(String page, JsonObject catalog) {
        Map<String, Object> componentOptions = catalog.getMap("componentProperties");
        Map<String, Object> endpointOptions = catalog.getMap("properties");
        List<Map<String, Object>> path = options(endpointOptions, "path");
        List<Map<String, Object>> query = options(endpointOptions, "parameter");
        List<Map<String, Object>> headers = options(catalog.getMap("headers"), "header");
        String result = replaceSection(page, "component-options", "The Redis Delay component supports "
                                                                  + componentOptions.size()
                                                                  + " options, which are listed below.\n\n"
                                                                  + table(options(componentOptions, "property"), false));
        result = replaceSection(result, "endpoint-path-options", "==== Path Parameters (" + path.size() + " parameters)\n\n"
                                                                 + table(path, false));
        result = replaceSection(result, "endpoint-query-options", "==== Query Parameters (" + query.size() + " parameters)\n\n"
                                                                  + table(query, false));
        return replaceSection(result, "message-headers", "The Redis Delay component supports " + headers.size()
                                                         + " message headers, which are listed below.\n\n"
                                                         + table(headers, true));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> options(Map<String, Object> section, String kind) {
        return section.entrySet().stream()
                .map(entry -> {
                    Map<String, Object> option = (Map<String, Object>) entry.getValue();
                    option.put("name", entry.getKey());
                    return option;
                })
                .filter(option -> kind.equals(option.get("kind")))
                .collect(Collectors.toList());
    }

    private static String table(List<Map<String, Object>> options, boolean headers) {
        StringBuilder table = new StringBuilder(TABLE_HEAD);
        for (Map<String, Object> option : options) {
            table.append("| *").append(option.get("name")).append("* (").append(option.get("group")).append(")");
            if (headers) {
                String constant = String.valueOf(option.get("constantName"));
                table.append(" +\nConstant: `").append(constant.substring(constant.lastIndexOf('.') + 1).replace('#', '.'))
                        .append('`');
            }
            table.append(" | ").append(Boolean.TRUE.equals(option.get("required")) ? "*Required* " : "")
                    .append(option.get("description")).append(enumValues(option))
                    .append(Boolean.TRUE.equals(option.get("autowired"))
                            ? " Autowired: a single bean of this type in the registry is used." : "")
                    .append(" | ").append(option.getOrDefault("defaultValue", ""))
                    .append(" | ").append(simpleName(String.valueOf(option.get("javaType")))).append('\n');
        }
        return table.append("|===\n").toString();
    }

    private static String enumValues(Map<String, Object> option) {
        if (!(option.get("enum") instanceof List<?> values)) {
            return "";
        }
        return " Enum values: " + values.stream().map(value -> "`" + value + "`").collect(Collectors.joining(", ")) + ".";
    }

    private static String simpleName(String javaType) {
        String raw = javaType.contains("<") ? javaType.substring(0, javaType.indexOf('<')) : javaType;
        return raw.substring(raw.lastIndexOf('.') + 1);
    }

    private static String replaceSection(String page, String name, String content) {
        String start = "// " + name + ": START\n";
        String end = "// " + name + ": END\n";
        int from = page.indexOf(start);
        int to = page.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalStateException(PAGE + " has no section between '" + start.trim() + "' and '" + end.trim() + "'");
        }
        return page.substring(0, from + start.length()) + content + page.substring(to);
    }
}
