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

import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.redisson.api.RedissonClient;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The test server and exactly one RedissonClient bean of it, as an application with one Redis connection has. */
@TestConfiguration(proxyBeanMethods = false)
@Import(TestRedis.class)
public class OneRedissonClient {

    /** The application's only client, which the component picks without being told. */
    @Bean(destroyMethod = "shutdown")
    public RedissonClient redisson(RedisServerProcess redisServer) {
        return TestRedis.client(redisServer);
    }
}
