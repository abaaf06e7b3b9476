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

import java.lang.reflect.Field;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.apache.camel.spi.UriParam;

/**
 * Sets the options of a {@link RedisDelayConfiguration} bean by name as the component's own are set: the same names,
 * durations and whole numbers read as strictly, the same errors. Camel finds it by the bean's class name
 * ({@code META-INF/services/org/apache/camel/configurer/}) when camel-main binds
 * {@code camel.component.redis-delay.configuration.delay=5s} or {@code camel.beans.<bean>.delay=5s}; without it Camel
 * set them by reflection and read 5s as a number. It is Camel's, not an API for applications.
 */
public final class RedisDelayConfigurationConfigurer extends StrictOptionsConfigurer {

    /** The options the bean holds; the component's own (autowiredEnabled, ...) are not among them. */
    private static final Set<String> BEAN_OPTIONS = Arrays.stream(RedisDelayConfiguration.class.getDeclaredFields())
            .filter(field -> field.isAnnotationPresent(UriParam.class)).map(Field::getName).collect(Collectors.toSet());

    public RedisDelayConfigurationConfigurer() {
        super(new RedisDelayComponentConfigurer(), component -> "a RedisDelayConfiguration bean");
    }

    @Override
    public boolean configure(CamelContext camelContext, Object target, String name, Object value, boolean ignoreCase) {
        return isBeanOption(name) && super.configure(camelContext, holding(target), name, value, ignoreCase);
    }

    @Override
    public Class<?> getOptionType(String name, boolean ignoreCase) {
        return isBeanOption(name) ? super.getOptionType(name, ignoreCase) : null;
    }

    @Override
    public Object getOptionValue(Object target, String name, boolean ignoreCase) {
        return isBeanOption(name) ? super.getOptionValue(holding(target), name, ignoreCase) : null;
    }

    private static boolean isBeanOption(String name) {
        return BEAN_OPTIONS.stream().anyMatch(name::equalsIgnoreCase);
    }

    /** A component whose configuration is the bean itself, for the component's configurer to set its options on. */
    private static RedisDelayComponent holding(Object bean) {
        return new RedisDelayComponent((RedisDelayConfiguration) bean);
    }
}
