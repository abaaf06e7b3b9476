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

import io.github.camelredisdelay.faults.DeliveryLog;
import io.github.camelredisdelay.faults.DeliveryPlan;
import io.github.camelredisdelay.faults.RecordingProcessor;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;

/**
 * The routes of one node (CamelContext) of the history check: a consumer of the queue whose deliveries follow a
 * {@link ScriptedPlan}, re-delays included, without Camel's error handling (retries and dead letters are the queue's),
 * noting the ids it sees dead-lettered in {@link DeadLetteredIds}; on one node also a consumer of the dead-letter
 * queue. All note in the round's {@link DeliveryLog}, under the delivered bodies.
 */
final class NodeRoutes {

    /** The name the dead-letter queue's consumer notes its deliveries under. */
    static final String DEAD_LETTER_CONSUMER = "dead-letters";

    /** Only notes a dead letter. */
    private static final DeliveryPlan NOTE_DEAD_LETTER = new DeliveryPlan() {
        @Override
        public void work(Exchange exchange) {
            // a dead letter is only noted
        }

        @Override
        public String note(Exchange exchange) {
            return DeliveryNote.of(exchange).encode();
        }
    };

    private NodeRoutes() {
    }

    /** The id of a node's queue consumer route, the one the chaos stops and suspends. */
    static String consumerRouteId(String node) {
        return "consumer-" + node;
    }

    /** The id of a node's dead-letter queue consumer route, the one the chaos stops so that dead letters wait. */
    static String deadLetterRouteId(String node) {
        return "dead-letters-" + node;
    }

    /**
     * @param consumerOptions     the node's own consumer options (see {@link HistoryQueue#consumerOptions})
     * @param consumesDeadLetters whether the node also consumes the dead-letter queue
     */
    static RouteBuilder of(
            HistoryQueue queue, String node, String consumerOptions, DeliveryLog deliveryLog,
            Redelayer redelayer, DeadLetteredIds deadLettered,
            boolean consumesDeadLetters) {
        return new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(noErrorHandler());
                from(queue.consumerUri(consumerOptions)).routeId(consumerRouteId(node))
                        .process(new RecordingProcessor(
                                deliveryLog, node, deadLettered.watching(new ScriptedPlan(redelayer, node)), true));
                if (consumesDeadLetters) {
                    from(queue.deadLetterUri()).routeId(deadLetterRouteId(node))
                            .process(new RecordingProcessor(deliveryLog, DEAD_LETTER_CONSUMER, NOTE_DEAD_LETTER, true));
                }
            }
        };
    }
}
