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

import org.apache.camel.support.DefaultHeaderFilterStrategy;

/**
 * The default header filter: Camel's own headers, including every {@code CamelRedisDelay*} instruction, are neither
 * stored with a message nor restored from one.
 */
public class RedisDelayHeaderFilterStrategy extends DefaultHeaderFilterStrategy {

    public RedisDelayHeaderFilterStrategy() {
        setOutFilterStartsWith(CAMEL_FILTER_STARTS_WITH);
        setInFilterStartsWith(CAMEL_FILTER_STARTS_WITH);
    }
}
