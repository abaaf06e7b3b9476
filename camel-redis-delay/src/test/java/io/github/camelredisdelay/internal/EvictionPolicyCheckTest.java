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
package io.github.camelredisdelay.internal;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The eviction-policy check of a component, which lives as long as its CamelContext, while queues come and go: reply
 * queues named per request, queues named per day or per tenant.
 */
class EvictionPolicyCheckTest extends RedisDelayTestSupport {

    private static final int QUEUES = 3_000;

    @Test
    void remembersABoundedNumberOfTheQueuesItChecked() {
        EvictionPolicyCheck check = new EvictionPolicyCheck();
        ConnectedClient client = ConnectedClient.borrowed(redis());
        for (int i = 0; i < QUEUES; i++) {
            check.checkSoon(new QueueShard(client, QueueKeys.of(keyPrefix, "reply-" + i)), "test");
        }

        // found: one entry per queue shard ever checked (3,000), kept until the CamelContext stops
        assertThat(check.remembered()).isLessThanOrEqualTo(1_024);
    }
}
