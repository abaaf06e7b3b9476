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
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

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

    /** How often a producer sends a batch instead of one operation. */
    static final int PERCENT = 4;
    private static final int MAX_SIZE = 4;
    /** As the producers' other schedules, a delay of up to 2 s. */
    private static final int MAX_DELAY_MILLIS = 2000;

    private BatchSchedule() {
    }

    /**
     * Sends a batch of one to {@value #MAX_SIZE} bodies (none re-delaying itself) drawn from {@code random} through
     * {@code producer}, with a delay of up to {@value #MAX_DELAY_MILLIS} ms; one operation per body, in order.
     *
     * @param sequence the round's body numbers
     * @param source   who sends it, as in {@link ScriptedBody#source()}
     */
    static List<Operation> send(
            ProducerTemplate producer, HistoryQueue queue, String node, Random random,
            AtomicLong sequence, String source) {
        List<String> bodies = new ArrayList<>();
        for (int i = 1 + random.nextInt(MAX_SIZE); i > 0; i--) {
            bodies.add(ScriptedBody.drawn(random, sequence.incrementAndGet(), source, 0).text());
        }
        return send(producer, queue, node, random.nextInt(MAX_DELAY_MILLIS + 1), bodies);
    }

    private static List<Operation> send(
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
            element.noteReply(reply);
            // the batch's own id header says nothing of an element: its id is the reply list's
            element.id = ids != null && i < ids.size() ? String.valueOf(ids.get(i)) : null;
            elements.add(element);
        }
        return elements;
    }
}
