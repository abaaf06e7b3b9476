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
package io.github.camelredisdelay.test;

import io.github.camelredisdelay.RedisDelayConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Base of the tests whose contexts reach the test Redis through a {@link SlowLink} (a Redis in another zone or region),
 * one per test class: the components use its client.
 */
public abstract class SlowLinkTestSupport extends RedisDelayTestSupport {

    /** The link of the running test class, fast until the test {@linkplain SlowLink#roundTrip slows it}. */
    protected static SlowLink link;

    @BeforeAll
    static void openLink() {
        link = SlowLink.open();
    }

    @AfterAll
    static void closeLink() {
        link.close();
    }

    @Override
    protected boolean usesSharedClient() {
        return false;
    }

    @Override
    protected void connectOnItsOwn(RedisDelayConfiguration configuration) {
        configuration.setRedissonClient(link.client());
    }
}
