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
package io.github.camelredisdelay.faults;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;

/**
 * The route of every consumer in the fault tests: notes the delivery in a {@link DeliveryLog}, works for a while (so a
 * kill can hit it in the middle of an exchange), then notes that it finished. The exchange completes, and the component
 * acknowledges the message, only after the second note. A {@link DeliveryPlan} may vary the work, fail the exchange
 * (its end is then noted {@value #FAILED}) and note more about the delivery.
 */
public final class RecordingProcessor implements Processor {

    /** The note of the end of an exchange that the plan failed. */
    public static final String FAILED = "failed";

    private final DeliveryLog log;
    private final String consumer;
    private final DeliveryPlan plan;
    private final boolean notesBodies;

    /**
     * @param consumer   the name noted with each delivery, e.g. {@code jvm-1234}
     * @param workMillis how long each exchange takes
     */
    public RecordingProcessor(DeliveryLog log, String consumer, long workMillis) {
        this(log, consumer, workMillis, false);
    }

    /**
     * @param notesBodies note each delivery under its body instead of its message id: for messages whose ids the test
     *                    cannot know in advance, such as those migrated from an RDelayedQueue
     */
    public RecordingProcessor(DeliveryLog log, String consumer, long workMillis, boolean notesBodies) {
        this(log, consumer, DeliveryPlan.working(workMillis), notesBodies);
    }

    /** A consumer whose deliveries follow {@code plan}. */
    public RecordingProcessor(DeliveryLog log, String consumer, DeliveryPlan plan, boolean notesBodies) {
        this.log = log;
        this.consumer = consumer;
        this.plan = plan;
        this.notesBodies = notesBodies;
    }

    @Override
    public void process(Exchange exchange) throws Exception {
        String id = notesBodies
                ? exchange.getMessage().getBody(String.class)
                : exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        int count = exchange.getMessage().getHeader(RedisDelayConstants.DELIVERY_COUNT, Integer.class);
        log.record(Event.STARTED, id, count, consumer, plan.note(exchange));
        plan.work(exchange);
        Exception failure = plan.failure(exchange);
        log.record(Event.FINISHED, id, count, consumer, failure == null ? "" : FAILED);
        if (failure != null) {
            throw failure;
        }
    }
}
