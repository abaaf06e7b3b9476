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

import io.github.camelredisdelay.internal.QueueCounts;
import org.apache.camel.CamelContext;

/**
 * A queue's figures counted in Redis now through its endpoint, for tests of any package: what the {@code stats}
 * operation reports, without waiting for its snapshot, which is refreshed at most once every 2 s.
 */
public final class CountedNow {

    private CountedNow() {
    }

    /** The counts of the queue of {@code uri}, an endpoint already started (one a producer sent to, say). */
    public static QueueCounts queue(CamelContext context, String uri) {
        return endpoint(context, uri).queue().counts();
    }

    /** The messages in the dead-letter queue of {@code uri}, an endpoint already started. */
    public static long deadLettered(CamelContext context, String uri) {
        return endpoint(context, uri).deadLetterQueue().size();
    }

    private static RedisDelayEndpoint endpoint(CamelContext context, String uri) {
        return context.getEndpoint(uri, RedisDelayEndpoint.class);
    }
}
