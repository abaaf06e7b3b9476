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
package io.github.camelredisdelay.docs;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.CamelExecutionException;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The route of the component page's section "Scheduling beside a database write", run as it is shown there
 * ({@link ComponentPageSnippetsTest} checks that the page shows exactly this route): an order whose saving fails after
 * its deadline was scheduled leaves no deadline behind; a saved one keeps it, also when it is placed again and the
 * database refuses it.
 */
class ScheduleBesideADatabaseWriteTest extends RedisDelayTestSupport {

    @Test
    void aPlacementThatFailsAfterItsScheduleCancelsItAndOneThatSucceedsKeepsIt() throws Exception {
        CamelContext node = startContext(placeOrder(), new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:saveOrder").filter(header("orderId").isEqualTo("order-2"))
                        .throwException(new IllegalStateException("duplicate key"));
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();

        producer.sendBodyAndHeader("direct:placeOrder", "order", "orderId", "order-1");
        assertThatThrownBy(() -> producer.sendBodyAndHeader("direct:placeOrder", "order", "orderId", "order-2"))
                .isInstanceOf(CamelExecutionException.class).hasRootCauseMessage("duplicate key");

        assertThat(state(producer, "order-1")).as("the saved order's deadline").isEqualTo("scheduled");
        assertThat(state(producer, "order-2")).as("the deadline of the order that could not be saved").isNull();
    }

    /**
     * An order placed again (a client that retries the request) is refused by the database, as saved already: the
     * schedule kept the saved order's deadline (onDuplicate=keep), which the failure must not cancel.
     */
    @Test
    void aRepeatedPlacementOfASavedOrderThatTheDatabaseRefusesKeepsItsDeadline() throws Exception {
        Set<String> saved = ConcurrentHashMap.newKeySet();
        CamelContext node = startContext(placeOrder(), new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:saveOrder").process(e -> {
                    if (!saved.add(e.getMessage().getHeader("orderId", String.class))) {
                        throw new IllegalStateException("duplicate key");
                    }
                });
            }
        });
        ProducerTemplate producer = node.createProducerTemplate();

        producer.sendBodyAndHeader("direct:placeOrder", "order", "orderId", "order-1");
        assertThatThrownBy(() -> producer.sendBodyAndHeader("direct:placeOrder", "order", "orderId", "order-1"))
                .isInstanceOf(CamelExecutionException.class).hasRootCauseMessage("duplicate key");

        assertThat(state(producer, "order-1")).as("the deadline of the order saved by its first placement")
                .isEqualTo("scheduled");
    }

    /** The route the component page shows. */
    private static RouteBuilder placeOrder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                // tag::snippet[]
                from("direct:placeOrder")
                        .onCompletion().onFailureOnly()
                        // saving the order failed after this exchange stored its deadline: cancel it, by the id it was
                        // given; not one that was there already (a repeated placement), kept by the schedule
                        .onWhen(header(RedisDelayConstants.DUPLICATE).isEqualTo(false))
                        .to("redis-delay:orders?operation=cancel")
                        .end()
                        .setHeader(RedisDelayConstants.MESSAGE_ID, header("orderId"))
                        .to("redis-delay:orders?delay=30m")
                        .to("direct:saveOrder"); // the database write, last: its failure fails the exchange
                // end::snippet[]
            }
        };
    }

    private static Object state(ProducerTemplate producer, String id) {
        return producer.request("redis-delay:orders?operation=peek",
                e -> e.getMessage().setHeader(RedisDelayConstants.MESSAGE_ID, id)).getMessage()
                .getHeader(RedisDelayConstants.STATE);
    }
}
