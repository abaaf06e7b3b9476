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
