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

import java.util.Set;

import io.github.camelredisdelay.RedisDelayConfiguration;
import org.redisson.api.RedissonClient;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.convert.TypeDescriptor;
import org.springframework.core.convert.converter.GenericConverter;

/**
 * Turns the bean references of {@code camel.component.redis-delay.*} ({@code #bean:queueClient}, or
 * {@code #queueClient} as Camel also accepts) into the beans they name, as Camel's own starters do; a plain name
 * ({@code queueClient}) names a bean too, as elsewhere in Spring, rather than being dropped. A name no bean of the
 * option's type has fails the startup, naming it.
 */
@Configuration(proxyBeanMethods = false)
@ConfigurationPropertiesBinding
public class RedisDelayComponentConverter implements GenericConverter {

    private static final String BEAN_PREFIX = "#bean:";

    private final ApplicationContext applicationContext;

    /** A converter looking beans up in this application context. */
    public RedisDelayComponentConverter(ApplicationContext applicationContext) {
        this.applicationContext = applicationContext;
    }

    @Override
    public Set<ConvertiblePair> getConvertibleTypes() {
        return Set.of(new ConvertiblePair(String.class, RedissonClient.class),
                new ConvertiblePair(String.class, RedisDelayConfiguration.class));
    }

    @Override
    public Object convert(Object source, TypeDescriptor sourceType, TypeDescriptor targetType) {
        if (source == null) {
            return null;
        }
        String reference = source.toString();
        String name = reference.startsWith(BEAN_PREFIX) ? reference.substring(BEAN_PREFIX.length())
                : reference.startsWith("#") ? reference.substring(1) : reference;
        return applicationContext.getBean(name, targetType.getType());
    }
}
