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
package io.github.camelredisdelay.faults.history;

import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.DeliveryPlan;
import org.apache.camel.Exchange;

/**
 * The ids the nodes' routes saw dead-lettered: each id whose delivery failed at {@link HistoryQueue#MAX_DELIVERIES},
 * noted by the plan {@link #watching} wraps, for the {@link Redriver}'s redrives by id.
 */
final class DeadLetteredIds {

    /** How many of the latest the redrives by id choose from. */
    private static final int RECENT = 8;

    private final List<String> ids = new CopyOnWriteArrayList<>();

    /** {@code plan}, noting the ids of the deliveries it fails for the last time. */
    DeliveryPlan watching(DeliveryPlan plan) {
        return new DeliveryPlan() {
            @Override
            public void work(Exchange exchange) throws Exception {
                plan.work(exchange);
            }

            @Override
            public Exception failure(Exchange exchange) {
                Exception failure = plan.failure(exchange);
                if (failure != null && exchange.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class)
                                       >= HistoryQueue.MAX_DELIVERIES) {
                    ids.add(exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class));
                }
                return failure;
            }

            @Override
            public String note(Exchange exchange) {
                return plan.note(exchange);
            }
        };
    }

    /** One of the latest ids seen dead-lettered, {@code null} before any. */
    String recent(Random random) {
        List<String> seen = List.copyOf(ids);
        return seen.isEmpty() ? null : seen.get(seen.size() - 1 - random.nextInt(Math.min(RECENT, seen.size())));
    }
}
