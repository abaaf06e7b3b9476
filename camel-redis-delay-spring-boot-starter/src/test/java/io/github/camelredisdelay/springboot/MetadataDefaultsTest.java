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
package io.github.camelredisdelay.springboot;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.PropertyConfigurerGetter;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.util.StringHelper;
import org.apache.camel.util.TimeUtils;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults an IDE shows from the generated {@code spring-configuration-metadata.json} are the component's real
 * defaults: the starter hands only the options a configuration sets to the component, so a default written on its
 * properties class is shown but never applied, and nothing else would notice it drift.
 */
class MetadataDefaultsTest {

    private static final String PREFIX = RedisDelayComponentConfiguration.PREFIX + ".";

    @Test
    void metadataDefaultsAreTheComponentsRealDefaults() throws Exception {
        Map<String, String> shown = new LinkedHashMap<>();
        Map<String, String> real = new LinkedHashMap<>();
        try (CamelContext context = new DefaultCamelContext()) {
            RedisDelayComponent component = new RedisDelayComponent();
            context.addComponent("redis-delay", component);
            PropertyConfigurerGetter getter = (PropertyConfigurerGetter) PluginHelper.getConfigurerResolver(context)
                    .resolvePropertyConfigurer("redis-delay-component", context);
            for (Object entry : metadata().getCollection("properties")) {
                Map<?, ?> property = (Map<?, ?>) entry;
                String name = StringHelper.dashToCamelCase(String.valueOf(property.get("name")).substring(PREFIX.length()));
                Object value = getter.getOptionType(name, false) == null ? null : getter.getOptionValue(component, name, false);
                if (getter.getOptionType(name, false) != null && property.get("defaultValue") != null) {
                    shown.put(name, asComponentValue(property.get("defaultValue"), value));
                    real.put(name, String.valueOf(value));
                }
            }
        }
        assertThat(shown).as("defaults in spring-configuration-metadata.json").isNotEmpty().isEqualTo(real);
    }

    @Test
    void everyComponentOptionOfTheCatalogIsInTheMetadataWithADescription() throws Exception {
        Map<String, Object> catalogOptions = json("/META-INF/io/github/camelredisdelay/redis-delay.json")
                .getMap("componentProperties");
        Map<String, Object> described = new LinkedHashMap<>();
        for (Object entry : metadata().getCollection("properties")) {
            Map<?, ?> property = (Map<?, ?>) entry;
            described.put(StringHelper.dashToCamelCase(String.valueOf(property.get("name")).substring(PREFIX.length())),
                    property.get("description"));
        }
        assertThat(described).as("options in spring-configuration-metadata.json").containsKeys(
                catalogOptions.keySet().toArray(String[]::new));
        catalogOptions.keySet().forEach(name -> assertThat(String.valueOf(described.get(name)))
                .as("description of %s", name).isNotBlank().isNotEqualTo("null"));
    }

    /** The metadata's default as the component holds it: durations in milliseconds, a list comma-separated. */
    private static String asComponentValue(Object shown, Object real) {
        if (shown instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        if (real instanceof Long && shown instanceof String text) {
            return String.valueOf(TimeUtils.toMilliSeconds(text));
        }
        return String.valueOf(shown);
    }

    private static JsonObject metadata() throws Exception {
        return json("/META-INF/spring-configuration-metadata.json");
    }

    private static JsonObject json(String resource) throws Exception {
        try (InputStream in = MetadataDefaultsTest.class.getResourceAsStream(resource)) {
            return (JsonObject) Jsoner.deserialize(new String(in.readAllBytes(), StandardCharsets.UTF_8), new JsonObject());
        }
    }
}
