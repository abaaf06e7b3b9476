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
package io.github.camelredisdelay.example;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.model.ModelCamelContext;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The YAML and XML tabs of the component page ({@code redis-delay-component.adoc}) load with camel-yaml-dsl and
 * camel-xml-io-dsl, and each defines the same routes as its sibling tab: a typo in a snippet fails the build.
 */
class DocSnippetsTest {

    private static final Path PAGE = Path.of("..", "camel-redis-delay", "src", "main", "docs", "redis-delay-component.adoc");
    private static final String XML_NAMESPACE = "http://camel.apache.org/schema/xml-io";

    @Test
    void everyYamlAndXmlTabLoadsAndDefinesTheSameRoutesAsItsSibling() throws Exception {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        List<String> yamlTabs = blocks(page, "yaml");
        List<String> xmlTabs = blocks(page, "xml").stream().filter(block -> block.contains("<route")).toList();

        assertThat(yamlTabs).hasSize(4).hasSameSizeAs(xmlTabs);
        for (int i = 0; i < yamlTabs.size(); i++) {
            List<String> fromYaml = load("snippet.yaml", yamlTabs.get(i));
            List<String> fromXml
                    = load("snippet.xml", "<routes xmlns=\"" + XML_NAMESPACE + "\">" + xmlTabs.get(i) + "</routes>");

            assertThat(fromYaml).as("routes of YAML tab %d", i + 1).isNotEmpty().isEqualTo(fromXml);
        }
    }

    private static List<String> blocks(String page, String language) {
        Matcher block = Pattern.compile("\\[source," + language + "\\]\\n----\\n(.*?)\\n----\\n", Pattern.DOTALL).matcher(page);
        List<String> found = new ArrayList<>();
        while (block.find()) {
            found.add(block.group(1));
        }
        return found;
    }

    /** The routes a snippet defines, each as its input and outputs, without starting anything. */
    private static List<String> load(String name, String text) throws Exception {
        try (ModelCamelContext context = new DefaultCamelContext()) {
            PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.fromString(name, text));
            return context.getRouteDefinitions().stream().map(DocSnippetsTest::describe).toList();
        }
    }

    /** The input and outputs; a data format (of a marshal step) by its class, as it has no text of its own. */
    private static String describe(RouteDefinition route) {
        return route.getInput().getEndpointUri() + " -> "
               + route.getOutputs().stream().map(output -> output.toString().replaceAll("@[0-9a-f]+\\]", "]")).toList();
    }
}
