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

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;

import org.apache.camel.CamelContext;
import org.apache.camel.Ordered;
import org.apache.camel.spi.LoadablePropertiesSource;
import org.apache.camel.spi.PropertiesComponent;
import org.apache.camel.util.StringHelper;

/**
 * Turns the environment variables {@code CAMEL_COMPONENT_REDIS_DELAY_<OPTION>} into the properties
 * {@code camel.component.redis-delay.<option>}, as camel-main does for the components it knows by name: it cannot tell
 * where the dash of {@code redis-delay} goes and would read {@code CAMEL_COMPONENT_REDIS_DELAY_ADDRESS} as option
 * {@code delay-address} of a component {@code redis}. A second component of this kind, under a name of its own
 * ({@code audit-delay}), has variables named after that name ({@code CAMEL_COMPONENT_AUDIT_DELAY_<OPTION>}), which
 * camel-main reads as options of a component {@code audit}. The component adds the source of its name to its
 * CamelContext's properties before its first endpoint ({@link RedisDelayComponent}). It comes first in Camel's order of
 * sources ({@link #getOrder()}), ahead of property files (ordered from 100 on), so the environment wins over them, as
 * it does in camel-main.
 */
public final class RedisDelayEnvironmentVariables implements LoadablePropertiesSource, Ordered {

    /** Camel-main's off switch of a component, under the component's prefix and Camel's global one: no option. */
    private static final String SWITCH = "enabled";
    /** Where Spring Boot reads an option of the configuration bean, {@code camel.component.<name>.configuration.*}. */
    private static final String NESTED = "CONFIGURATION_";

    private final String componentName;
    private final String variablePrefix;
    private final String propertyPrefix;
    private final Map<String, String> environment;

    /** Reads the process environment for the component of this name in its CamelContext. */
    RedisDelayEnvironmentVariables(String componentName) {
        this.componentName = componentName;
        this.variablePrefix = "CAMEL_COMPONENT_" + componentName.replace('-', '_').toUpperCase(Locale.ROOT) + "_";
        this.propertyPrefix = "camel.component." + componentName + ".";
        this.environment = System.getenv();
    }

    /** Adds this source to the properties of {@code context} unless they have one of its name; whether they had not. */
    boolean addTo(CamelContext context) {
        PropertiesComponent properties = context.getPropertiesComponent();
        if (properties.getPropertiesSource(getName()) != null) {
            return false;
        }
        properties.addPropertiesSource(this);
        return true;
    }

    /** The name of the component whose variables these are. */
    String componentName() {
        return componentName;
    }

    /**
     * The component options the variables set, by name ({@code keyPrefix}), with their values; not those a JVM system
     * property {@code camel.component.<name>.<option>} sets too, which camel-main reads after the environment, nor
     * camel-main's off switch ({@code CAMEL_COMPONENT_REDIS_DELAY_ENABLED}, {@link #switchedOff}).
     */
    Map<String, Object> componentOptions() {
        Set<String> systemOptions = new HashSet<>();
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(propertyPrefix))
                .forEach(name -> systemOptions.add(option(name).toLowerCase(Locale.ROOT)));
        Map<String, Object> options = new LinkedHashMap<>();
        loadProperties().forEach((name, value) -> {
            String option = option((String) name);
            if (!systemOptions.contains(option.toLowerCase(Locale.ROOT)) && !SWITCH.equalsIgnoreCase(option)) {
                options.put(option, value);
            }
        });
        return options;
    }

    /**
     * Whether camel-main's off switch leaves the component unconfigured by its properties, and so by the variables:
     * {@code camel.component.<name>.enabled}, else Camel's global {@code camel.component.enabled}, is {@code false},
     * wherever the properties of {@code context} have it from (a property file, a JVM system property, the
     * environment).
     */
    boolean switchedOff(CamelContext context) {
        PropertiesComponent properties = context.getPropertiesComponent();
        String all = properties.resolveProperty("camel.component." + SWITCH).orElse("true");
        return !Boolean.parseBoolean(properties.resolveProperty(propertyPrefix + SWITCH).orElse(all));
    }

    /**
     * For an application that binds the environment itself, as Spring Boot does: fails naming the first variable the
     * application does not read, since it names none of {@code known} (camel case) or spells one other than the
     * application does ({@code ..._KEYPREFIX}, which camel-main reads, for {@code ..._KEY_PREFIX}). It reads as Spring
     * Boot does an element of one of {@code lists} too ({@code ..._RETRY_SCHEDULE_0}), and one of {@code nested} under
     * {@code ..._CONFIGURATION_}, an option of the configuration bean.
     */
    void refuseUnread(Set<String> known, Set<String> lists, Set<String> nested) {
        environment.keySet().stream()
                .filter(variable -> variable.startsWith(variablePrefix) && variable.length() > variablePrefix.length()).sorted()
                .filter(variable -> !readByApplication(variable.substring(variablePrefix.length()), known, lists, nested))
                .findFirst().ifPresent(variable -> {
                    String option = option(propertyPrefix
                                           + variable.substring(variablePrefix.length()).toLowerCase(Locale.ROOT)
                                                   .replace('_', '-'));
                    String read = known.stream().filter(option::equalsIgnoreCase).findFirst().map(this::variable)
                            .map(spelt -> ": it is read only as " + spelt).orElse(": it has no option " + option);
                    throw new IllegalArgumentException(
                            "The environment variable " + variable + " does not configure the " + componentName
                                                       + " component" + read);
                });
    }

    /** Whether {@code name}, a variable less its prefix, is one of {@code known}, an element or a nested option. */
    private static boolean readByApplication(String name, Set<String> known, Set<String> lists, Set<String> nested) {
        String list = name.replaceFirst("(_[0-9]+)+$", "");
        return spells(name, known) || !list.equals(name) && spells(list, lists)
                || name.startsWith(NESTED) && spells(name.substring(NESTED.length()), nested);
    }

    /** Whether {@code name} is the variable spelling of one of {@code options} ({@code KEY_PREFIX}). */
    private static boolean spells(String name, Set<String> options) {
        return options.stream().anyMatch(option -> spelling(option).equals(name));
    }

    /** The variable spelling of {@code option} ({@code keyPrefix} or {@code key-prefix}): {@code KEY_PREFIX}. */
    private static String spelling(String option) {
        return option.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('-', '_').toUpperCase(Locale.ROOT);
    }

    /** The option a property {@code camel.component.<name>.<option>} names, in camel case. */
    private String option(String property) {
        return StringHelper.dashToCamelCase(property.substring(propertyPrefix.length()));
    }

    @Override
    public String getName() {
        return componentName + " environment variables";
    }

    @Override
    public String getProperty(String name) {
        if (!name.startsWith(propertyPrefix)) {
            return null;
        }
        return environment.get(variable(name.substring(propertyPrefix.length())));
    }

    /** The variable that sets {@code option} ({@code keyPrefix} or {@code key-prefix}). */
    String variable(String option) {
        return variablePrefix + spelling(option);
    }

    @Override
    public Properties loadProperties() {
        return loadProperties(name -> true);
    }

    @Override
    public Properties loadProperties(Predicate<String> filter) {
        Properties properties = new Properties();
        environment.forEach((variable, value) -> {
            if (variable.startsWith(variablePrefix) && variable.length() > variablePrefix.length()) {
                String option = variable.substring(variablePrefix.length()).toLowerCase(Locale.ROOT).replace('_', '-');
                String name = propertyPrefix + option;
                if (filter.test(name)) {
                    properties.setProperty(name, value);
                }
            }
        });
        return properties;
    }

    @Override
    public void reloadProperties(String location) {
        // the environment does not change while the JVM runs
    }

    /** First: Camel looks a property up in its sources in this order, and lets the first win when it loads them all. */
    @Override
    public int getOrder() {
        return Ordered.HIGHEST;
    }
}
