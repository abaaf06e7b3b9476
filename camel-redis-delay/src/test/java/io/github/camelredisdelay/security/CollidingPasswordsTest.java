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
package io.github.camelredisdelay.security;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.test.CamelNodes;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Endpoints that connect on their own share a client when they name the same server, user, password and database: two
 * passwords must never pass for one, not even two whose {@link String#hashCode()} is the same.
 */
class CollidingPasswordsTest {

    private static final String USER = "camel-delay";

    private final CamelNodes nodes = new CamelNodes();
    private AclRedisServer server;

    @AfterEach
    void stop() {
        nodes.close();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anEndpointWithAWrongPasswordDoesNotGetTheClientOfOneWithTheRightPassword() throws Exception {
        assertThat("Aa".hashCode()).as("two passwords with one hash code").isEqualTo("BB".hashCode());
        RedisBinary binary = TestRedisBinary.selected();
        server = AclRedisServer.start(binary, USER, "Aa", ComponentAcl.rulesFor(TestRedisBinary.version(binary)));
        ProducerTemplate producer = nodes.start(options -> {
        }).createProducerTemplate();
        String endpoint = "redis-delay:orders?delay=1h&address=" + server.address() + "&username=" + USER + "&password=";

        Exchange right = producer.send(endpoint + "Aa", e -> e.getMessage().setBody("right"));
        assertThat(right.getException()).as("the right password").isNull();

        Exchange wrong = producer.send(endpoint + "BB", e -> e.getMessage().setBody("wrong"));
        assertThat(wrong.getException()).as("a wrong password, the same hash code").isNotNull();
    }
}
