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

import java.util.Arrays;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.spi.GeneratedPropertyConfigurer;
import org.apache.camel.spi.PropertyConfigurer;
import org.apache.camel.spi.PropertyConfigurerGetter;
import org.apache.camel.support.EndpointHelper;

/**
 * The generated configurer of the component or the endpoint, with duration options ({@link Durations#parse}) and
 * whole-number options read strictly: Camel's own converter reads {@code 30M}, {@code abc} and {@code 3.5} as 0; an
 * unknown value of an enum option fails naming the values allowed, where Camel's error names the enum class; a boolean
 * takes blanks around it, as the others do (java.util.Properties keeps a trailing one), where Camel's converter fails.
 * Every way an option is set by name goes through here, so URIs, component properties, camel-main and Spring Boot
 * properties and the properties of a configuration bean ({@link RedisDelayConfigurationConfigurer}) are all checked
 * alike.
 */
class StrictOptionsConfigurer implements GeneratedPropertyConfigurer, PropertyConfigurerGetter {

    /** The options of type duration, as the catalog names them. */
    static final Set<String> DURATION_OPTIONS = Set.of("delay", "pollInterval", "visibilityTimeout", "transferInterval",
            "syncTimeout");

    private final PropertyConfigurer delegate;
    private final Function<Object, String> owner;

    /**
     * @param owner names the target in error messages, e.g. "queue orders"
     */
    StrictOptionsConfigurer(PropertyConfigurer delegate, Function<Object, String> owner) {
        this.delegate = delegate;
        this.owner = owner;
    }

    @Override
    public boolean configure(CamelContext camelContext, Object target, String name, Object value, boolean ignoreCase) {
        Object checked = value;
        if (value instanceof String text) {
            String what = name + " option of " + owner.apply(target);
            Class<?> type = getOptionType(name, ignoreCase);
            if (isDuration(name)) {
                checked = Durations.parse(text, what);
            } else if (isWholeNumber(type)) {
                checked = wholeNumber(text, what);
            } else if (type == boolean.class || type == Boolean.class) {
                // a reference to a bean (#flag) is left to Camel, which looks it up
                checked = EndpointHelper.isReferenceParameter(text) ? text : truthValue(text, what);
            } else if (type != null && type.isEnum()) {
                checked = constant(camelContext, type, text, what);
            }
        }
        return delegate.configure(camelContext, target, name, checked, ignoreCase);
    }

    private static boolean isWholeNumber(Class<?> type) {
        return type == int.class || type == Integer.class;
    }

    /** {@code text} as an int, blanks around it ignored (java.util.Properties keeps a trailing one). */
    private static int wholeNumber(String text, String what) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "Invalid value '" + text + "' for the " + what + ": a whole number is "
                                               + "needed, such as 5");
        }
    }

    /** {@code text} as true or false in any case, as Camel reads booleans, blanks around it ignored. */
    private static boolean truthValue(String text, String what) {
        String stripped = text.strip();
        if (stripped.equalsIgnoreCase("true") || stripped.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(stripped);
        }
        throw new IllegalArgumentException(
                "Invalid value '" + text + "' for the " + what + ": true or false is needed");
    }

    /**
     * {@code text} as a constant of {@code type}, read as Camel reads enums (any case); one that is none of them fails
     * naming the value and every constant, where Camel's own error names the enum class only.
     */
    private static Object constant(CamelContext camelContext, Class<?> type, String text, String what) {
        Object constant = null;
        try {
            constant = camelContext.getTypeConverter().tryConvertTo(type, text);
        } catch (RuntimeException e) {
            // no constant of that name: named below
        }
        if (constant == null) {
            String allowed = Arrays.stream(type.getEnumConstants()).map(Object::toString).collect(Collectors.joining(", "));
            throw new IllegalArgumentException(
                    "Invalid value '" + text + "' for the " + what + ": one of " + allowed + " is needed");
        }
        return constant;
    }

    private static boolean isDuration(String name) {
        return DURATION_OPTIONS.stream().anyMatch(name::equalsIgnoreCase);
    }

    @Override
    public Class<?> getOptionType(String name, boolean ignoreCase) {
        return getter().getOptionType(name, ignoreCase);
    }

    @Override
    public Object getOptionValue(Object target, String name, boolean ignoreCase) {
        return getter().getOptionValue(target, name, ignoreCase);
    }

    @Override
    public String[] getAutowiredNames() {
        return getter().getAutowiredNames();
    }

    @Override
    public Object getCollectionValueType(Object target, String name, boolean ignoreCase) {
        return getter().getCollectionValueType(target, name, ignoreCase);
    }

    private PropertyConfigurerGetter getter() {
        return (PropertyConfigurerGetter) delegate;
    }
}
