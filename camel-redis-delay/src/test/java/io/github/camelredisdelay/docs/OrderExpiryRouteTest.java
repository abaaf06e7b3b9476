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

import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.AdviceWith;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.apache.camel.test.junit5.TestExecutionConfiguration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The snippet of the component page's section "Testing routes that use redis-delay", run as it is shown there
 * ({@link ComponentPageSnippetsTest} checks that the page shows exactly this): a unit test of a route between two
 * queues, without Redis.
 */
// tag::snippet[]
class OrderExpiryRouteTest extends CamelTestSupport {

    @Override
    protected RoutesBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("expire-order")
                        .setBody(simple("reminder for ${body}"))
                        .to("redis-delay:reminders?delay=1h");
            }
        };
    }

    @Override
    public void configureTest(TestExecutionConfiguration test) {
        super.configureTest(test);
        // the context starts after the advice: the redis-delay endpoints are never created
        test.withUseAdviceWith(true);
    }

    @Test
    void anExpiredOrderSchedulesAReminder() throws Exception {
        AdviceWith.adviceWith(context, "expire-order", route -> {
            route.replaceFromWith("direct:orders");
            route.weaveByToUri("redis-delay:*").replace().to("mock:reminders");
        });
        context.start();
        MockEndpoint reminders = getMockEndpoint("mock:reminders");
        reminders.expectedBodiesReceived("reminder for order 1");

        template.sendBody("direct:orders", "order 1");

        reminders.assertIsSatisfied();
        // no redis-delay endpoint was created: nothing talked to Redis
        assertTrue(context.getEndpoints().stream().noneMatch(e -> e.getEndpointUri().startsWith("redis-delay:")));
    }
}
// end::snippet[]
