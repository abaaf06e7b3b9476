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

import java.time.Duration;

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.HealthChecks;
import io.github.camelredisdelay.test.MasterAndReplica;
import io.github.camelredisdelay.test.ProcessSignals;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A producer with {@code syncReplicas} whose writes cannot reach their replicas fails every schedule: its readiness
 * check should not say UP meanwhile.
 */
class SyncReplicasHealthTest {

    @RegisterExtension
    static final MasterAndReplica SERVERS = new MasterAndReplica(RedisServerOptions.defaults());

    private final CamelNodes nodes = new CamelNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void aProducerWhoseSchedulesAllFailForTooFewReplicasIsNotReady() throws Exception {
        String uri = "redis-delay:orders?syncReplicas=1&syncTimeout=200&delay=1h";
        CamelContext node = nodes.create(options -> {
            options.setAddress(SERVERS.master().uri());
            options.setKeyPrefix("synchealth");
        }, new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").to(uri);
            }
        });
        HealthChecks.enableConsumersAndProducers(node);
        node.start();
        HealthCheck producerCheck = HealthChecks.producerCheck(node);
        await().atMost(Duration.ofSeconds(10)).until(() -> producerCheck.call().getState() == HealthCheck.State.UP);

        ProcessSignals.pause(SERVERS.replica());
        try {
            for (int i = 0; i < 3; i++) {
                Exchange sent = node.createProducerTemplate().send("direct:order",
                        e -> e.getMessage().setBody("order"));
                assertThat(sent.getException()).as("every schedule fails: the replica does not answer")
                        .isInstanceOf(NotReplicatedException.class);
            }
            assertThat(producerCheck.call().getState())
                    .as("readiness of a producer whose every schedule fails with NotReplicatedException")
                    .isEqualTo(HealthCheck.State.DOWN);
        } finally {
            ProcessSignals.resume(SERVERS.replica());
        }
    }
}
