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

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.Component;
import org.apache.camel.spi.PropertyConfigurer;
import org.apache.camel.util.StringHelper;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.core.convert.converter.GenericConverter;
import org.springframework.core.env.Environment;

/** Sets the options bound from {@code camel.component.<name>.*} on a redis-delay component. */
final class BoundOptions {

    private BoundOptions() {
    }

    /**
     * The prefix of the properties of the component named {@code name}, as Spring names properties:
     * {@code camel.component.audit-delay} for a component named {@code auditDelay} (a bean's name) or
     * {@code audit-delay}.
     */
    static String prefixOf(String name) {
        return "camel.component." + StringHelper.camelCaseToDash(name);
    }

    /**
     * Binds {@code camel.component.<name>.*} of {@code environment} ({@link #prefixOf}) as Spring binds
     * {@code camel.component.redis-delay.*} (bean references through {@code converter}), but an unknown property fails
     * naming it and where it comes from wherever it is set: for a second component of the application's own, which
     * Spring Boot binds nothing for, and to check {@code camel.component.redis-delay.*}, whose unknown JVM system
     * properties and environment variables Spring Boot's own check leaves out.
     */
    static RedisDelayComponentConfiguration bind(Environment environment, GenericConverter converter, String name) {
        ApplicationConversionService conversions = new ApplicationConversionService();
        conversions.addConverter(converter);
        Binder binder = new Binder(
                ConfigurationPropertySources.get(environment),
                new PropertySourcesPlaceholdersResolver(environment), conversions);
        RedisDelayComponentConfiguration options = new RedisDelayComponentConfiguration();
        try {
            binder.bind(prefixOf(name), Bindable.ofInstance(options),
                    new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
        } catch (BindException e) {
            if (e.getCause() instanceof UnboundConfigurationPropertiesException unknown) {
                throw new IllegalArgumentException(
                        "The " + name + " component has no option for "
                                                   + unknown.getUnboundProperties().stream()
                                                           .map(property -> property.getName() + " (" + Objects.toString(
                                                                   property.getOrigin(), "origin unknown") + ")")
                                                           .sorted().collect(Collectors.joining(", ")),
                        e);
            }
            throw e;
        }
        return options;
    }

    /** Sets the options present in {@code options} on {@code target}, the component named {@code name}. */
    static void applyTo(RedisDelayComponentConfiguration options, CamelContext camelContext, Component target, String name) {
        // through the component's own configurer, which reads durations strictly (30M must not become 0);
        // configuration (a bean of shared defaults) first, as the others apply on top of it
        Map<String, Object> ordered = new LinkedHashMap<>();
        Map<String, Object> bound = options.boundOptions();
        if (bound.containsKey("configuration")) {
            ordered.put("configuration", bound.get("configuration"));
        }
        ordered.putAll(bound);
        PropertyConfigurer configurer = target.getComponentPropertyConfigurer();
        ordered.forEach((option, value) -> {
            // straight to the configurer: camel-spring-boot's CamelPropertiesHelper tries a value the configurer refused
            // again as a bean reference (#bean:30M), whose lookup error then hides the configurer's own, and Camel's
            // property binding resolves {{ }} placeholders again, which Spring resolved already (a password may hold
            // {{); bean references arrive as beans (the converter)
            if (!configurer.configure(camelContext, target, option, value, true)) {
                throw new IllegalArgumentException(
                        "The " + name + " component has no option " + option + " (set to " + value + ")");
            }
        });
    }
}
