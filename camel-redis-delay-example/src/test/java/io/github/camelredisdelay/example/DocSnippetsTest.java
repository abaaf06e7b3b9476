package io.github.camelredisdelay.example;

import static org.assertj.core.api.Assertions.assertThat;

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
            List<String> fromXml = load("snippet.xml", "<routes xmlns=\"" + XML_NAMESPACE + "\">" + xmlTabs.get(i) + "</routes>");

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

    private static String describe(RouteDefinition route) {
        return route.getInput().getEndpointUri() + " -> " + route.getOutputs().stream().map(Object::toString).toList();
    }
}
