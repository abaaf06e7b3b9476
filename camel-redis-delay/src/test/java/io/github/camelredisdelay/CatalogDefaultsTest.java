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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.PropertyConfigurerGetter;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The defaults the catalog shows (and with it the component page tables, IDE tooling and {@code camel doc}) are the
 * values a component and an endpoint really start with: an annotation's {@code defaultValue} is text the generator
 * copies, so it can drift from the field's initial value without anything else noticing.
 */
class CatalogDefaultsTest {

    private static final Path CATALOG = Path.of("src/generated/resources/META-INF/io/github/camelredisdelay/redis-delay.json");

    @Test
    void catalogDefaultsAreTheComponentsAndEndpointsRealDefaults() throws Exception {
        JsonObject catalog = (JsonObject) Jsoner.deserialize(Files.readString(CATALOG, StandardCharsets.UTF_8),
                new JsonObject());
        try (CamelContext context = new DefaultCamelContext()) {
            RedisDelayComponent component = new RedisDelayComponent();
            context.addComponent("redis-delay", component);
            RedisDelayEndpoint endpoint = new RedisDelayEndpoint(
                    "redis-delay:defaults", component, "defaults",
                    component.getConfiguration().copy());

            assertThat(realValues(catalog.getMap("componentProperties"), component,
                    (PropertyConfigurerGetter) PluginHelper.getConfigurerResolver(context)
                            .resolvePropertyConfigurer("redis-delay-component", context)))
                    .as("component option defaults").isEqualTo(catalogDefaults(catalog.getMap("componentProperties")));
            assertThat(realValues(catalog.getMap("properties"), endpoint,
                    (PropertyConfigurerGetter) PluginHelper.getConfigurerResolver(context)
                            .resolvePropertyConfigurer("redis-delay-endpoint", context)))
                    .as("endpoint option defaults").isEqualTo(catalogDefaults(catalog.getMap("properties")));
        }
    }

    @Test
    void everyOptionAndHeaderHasADescription() throws Exception {
        JsonObject catalog = (JsonObject) Jsoner.deserialize(Files.readString(CATALOG, StandardCharsets.UTF_8),
                new JsonObject());
        for (String section : new String[] { "componentProperties", "properties", "headers" }) {
            catalog.getMap(section)
                    .forEach((name, option) -> assertThat(String.valueOf(((Map<?, ?>) option).get("description")))
                            .as("description of %s in %s", name, section).isNotBlank().isNotEqualTo("null"));
        }
    }

    /** Each option's default as the catalog states it, "" where it states none; bean options left out. */
    private static Map<String, String> catalogDefaults(Map<String, Object> options) {
        Map<String, String> defaults = new LinkedHashMap<>();
        valueOptions(options).forEach((name, option) -> {
            Object value = ((Map<?, ?>) option).get("defaultValue");
            defaults.put(name, value == null ? "" : String.valueOf(value));
        });
        return defaults;
    }

    /**
     * The options of {@link RedisDelayConfiguration} that hold a value, not a bean (a client); the ones Camel's base
     * classes declare are Camel's to document.
     */
    private static Map<String, Object> valueOptions(Map<String, Object> options) {
        Map<String, Object> values = new LinkedHashMap<>(options);
        values.values().removeIf(option -> "object".equals(((Map<?, ?>) option).get("type"))
                || !RedisDelayConfiguration.class.getName().equals(((Map<?, ?>) option).get("configurationClass")));
        return values;
    }

    /** Each option's value on a freshly made target, as text, "" where it is null. */
    private static Map<String, String> realValues(Map<String, Object> options, Object target, PropertyConfigurerGetter getter) {
        Map<String, String> values = new LinkedHashMap<>();
        valueOptions(options).forEach((name, option) -> {
            Object value = "path".equals(((Map<?, ?>) option).get("kind"))
                    ? null
                    : getter.getOptionValue(target, name, false);
            values.put(name, value == null ? "" : String.valueOf(value));
        });
        return values;
    }
}
