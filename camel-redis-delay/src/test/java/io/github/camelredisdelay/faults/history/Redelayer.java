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

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.github.camelredisdelay.RedisDelayConstants;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;

/**
 * A route's re-delay of the message it is delivering: the delivered exchange itself is sent to the queue again with a
 * new body and a delay under 600 ms, which stores a new version of its id, and the operation goes to the recorder. The
 * exchange gets its body back afterwards, so the delivery ends as its own body says.
 */
final class Redelayer {

    private final String uri;
    private final AtomicLong sequence;
    private final Consumer<Operation> recorder;
    private final Map<CamelContext, ProducerTemplate> templates = new ConcurrentHashMap<>();

    /** @param sequence the round's body numbers, shared with the producers */
    Redelayer(HistoryQueue queue, AtomicLong sequence, Consumer<Operation> recorder) {
        this.uri = queue.producerUri("onDuplicate=keep");
        this.sequence = sequence;
        this.recorder = recorder;
    }

    void redelay(Exchange exchange, ScriptedBody delivered, String node) {
        Operation op = new Operation(Operation.Kind.REDELAY, node);
        op.id = exchange.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class);
        op.parentBody = delivered.text();
        op.body = delivered.redelayed(sequence.incrementAndGet()).text();
        op.delay = new Random(op.body.hashCode()).nextInt(600);
        ProducerTemplate template = templates.computeIfAbsent(exchange.getContext(), CamelContext::createProducerTemplate);
        exchange.getMessage().setBody(op.body);
        exchange.getMessage().setHeader(RedisDelayConstants.DELAY, op.delay);
        op.start = System.currentTimeMillis();
        template.send(uri, exchange);
        op.end = System.currentTimeMillis();
        op.noteReply(exchange);
        exchange.setException(null);
        exchange.getMessage().setBody(op.parentBody);
        exchange.getMessage().removeHeader(RedisDelayConstants.DELAY);
        recorder.accept(op);
    }
}
