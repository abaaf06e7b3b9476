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

import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.DeliveryPlan;
import org.apache.camel.Exchange;

/**
 * How a history consumer handles a delivery: it pauses as its {@link ScriptedBody} says, re-delays it when the body
 * asks for it and the consumer can ({@link Redelayer}: the test's nodes, not the consumer JVM), and fails it while the
 * delivery count is within the body's failures. It notes a {@link DeliveryNote}.
 */
public final class ScriptedPlan implements DeliveryPlan {

    /** The longest a receiver works on a delivery: within its 1 s lease, which nothing extends while it holds it. */
    private static final int RECEIVER_MAX_PAUSE_MILLIS = 600;

    private final Redelayer redelayer;
    private final String node;
    private final int maxPauseMillis;

    /** The consumer JVM's plan: no re-delays. */
    public ScriptedPlan() {
        this(null, null, Integer.MAX_VALUE);
    }

    ScriptedPlan(Redelayer redelayer, String node) {
        this(redelayer, node, Integer.MAX_VALUE);
    }

    private ScriptedPlan(Redelayer redelayer, String node, int maxPauseMillis) {
        this.redelayer = redelayer;
        this.node = node;
        this.maxPauseMillis = maxPauseMillis;
    }

    /** The plan of a {@code ConsumerTemplate}'s receiver ({@link TemplateReceivers}): no re-delays, short pauses. */
    static ScriptedPlan forReceivers() {
        return new ScriptedPlan(null, null, RECEIVER_MAX_PAUSE_MILLIS);
    }

    @Override
    public void work(Exchange exchange) throws InterruptedException {
        ScriptedBody body = ScriptedBody.parse(exchange.getMessage().getBody(String.class));
        // the route's planned pause, part of the workload
        TimeUnit.MILLISECONDS.sleep(Math.min(body.pauseMillis(), maxPauseMillis));
        if (redelayer != null && body.redelays() > 0) {
            redelayer.redelay(exchange, body, node);
        }
    }

    @Override
    public Exception failure(Exchange exchange) {
        int count = exchange.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class);
        boolean fails = ScriptedBody.parse(exchange.getMessage().getBody(String.class)).fails(count);
        return fails ? new IllegalStateException("planned failure " + count) : null;
    }

    @Override
    public String note(Exchange exchange) {
        return DeliveryNote.of(exchange).encode();
    }
}
