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
package io.github.camelredisdelay.main;

import java.util.Properties;
import java.util.function.Predicate;

import org.apache.camel.spi.LoadablePropertiesSource;

/**
 * The properties source of another library, such as camel-microprofile-config's, which Camel finds through
 * {@code META-INF/services/org/apache/camel/properties-source-factory}: it serves the JVM's system properties named
 * {@code otherLibrary.<property>} as {@code <property>}.
 */
public final class OtherLibraryPropertiesSource implements LoadablePropertiesSource {

    private static final String PREFIX = "otherLibrary.";

    @Override
    public String getName() {
        return "other library";
    }

    @Override
    public String getProperty(String name) {
        return System.getProperty(PREFIX + name);
    }

    @Override
    public Properties loadProperties() {
        return loadProperties(name -> true);
    }

    @Override
    public Properties loadProperties(Predicate<String> filter) {
        Properties properties = new Properties();
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(PREFIX))
                .map(name -> name.substring(PREFIX.length())).filter(filter)
                .forEach(name -> properties.setProperty(name, getProperty(name)));
        return properties;
    }

    @Override
    public void reloadProperties(String location) {
        // system properties are read when asked
    }
}
