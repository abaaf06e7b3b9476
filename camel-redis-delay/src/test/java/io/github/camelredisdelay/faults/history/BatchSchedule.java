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

import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;

/**
 * A {@code scheduleBatch} of a producer thread: one exchange whose body is a list of bodies, each stored under a
 * generated id. Its reply is noted as one schedule of a generated id per element, sent and answered together, for the
 * {@link ReplyRules}: the id the reply's list gives it (none when the batch failed: a
 * {@link io.github.camelredisdelay.PartlyStoredBatchException} names the ids stored, not which body each has), the
 * batch's {@code Duplicate}, {@code ScheduledFor} (the due time of its last call to a shard) and error.
 */
final class BatchSchedule {

    private BatchSchedule() {
    }

    /** Sends the bodies as one batch through {@code producer} with this delay; one operation per body, in order. */
    static List<Operation> send(
            ProducerTemplate producer, HistoryQueue queue, String node, long delay,
            List<String> bodies) {
        long start = System.currentTimeMillis();
        Exchange reply = producer.send(queue.producerUri("operation=scheduleBatch"), exchange -> {
            exchange.getMessage().setHeader(RedisDelayConstants.DELAY, delay);
            exchange.getMessage().setBody(new ArrayList<>(bodies));
        });
        long end = System.currentTimeMillis();
        List<?> ids = reply.getException() == null ? reply.getMessage().getBody(List.class) : List.of();
        List<Operation> elements = new ArrayList<>();
        for (int i = 0; i < bodies.size(); i++) {
            Operation element = new Operation(Operation.Kind.SCHEDULE_GENERATED, node);
            element.inBatch = true;
            element.body = bodies.get(i);
            element.delay = delay;
            element.start = start;
            element.end = end;
            element.id = ids != null && i < ids.size() ? String.valueOf(ids.get(i)) : null;
            element.error = reply.getException();
            element.duplicate = reply.getMessage().getHeader(RedisDelayConstants.DUPLICATE, Boolean.class);
            element.scheduledFor = reply.getMessage().getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class);
            elements.add(element);
        }
        return elements;
    }
}
