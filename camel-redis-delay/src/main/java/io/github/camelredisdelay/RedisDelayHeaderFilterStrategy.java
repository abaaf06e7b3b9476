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
