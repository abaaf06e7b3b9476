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

import io.github.camelredisdelay.internal.QueueGuard;
import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A password in the user-info of an endpoint's {@code address} (redis://user:password@host:port, which Redisson reads)
 * is a credential: the producer health check id and the dev console mask it. The component's own log lines that name an
 * endpoint pass Camel's normalized endpoint URI, whose option values are percent-encoded, to
 * {@code URISupport.sanitizeUri}, which only recognizes the decoded form: the password is logged in clear.
 */
@CamelSide
class CredentialsInLogsTest extends RedisDelayTestSupport {

    private static final String PASSWORD = "s3cretPw";

    /** The test Redis, with the default user (nopass: any password is accepted) and a password in the address. */
    private static String addressWithPassword() {
        return RedisServerExtension.redisUrl().replaceFirst("//([^/@]*@)?", "//default:" + PASSWORD + "@");
    }

    @Test
    void theWarningAboutUnusedTransferOptionsDoesNotLogThePasswordOfTheAddress() throws Exception {
        String address = addressWithPassword();
        try (LogLines log = LogLines.of(RedisDelayEndpoint.class)) {
            CamelContext context = startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:in").to("redis-delay:orders?address=" + address);
                }
            });
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("redis-delay:orders?transferInterval=100ms&address=" + address).log("${body}");
                }
            });

            assertThat(log.lines()).as("the warning is logged").singleElement().asString().startsWith("WARN")
                    .contains("transferInterval");
            assertThat(log.lines()).allSatisfy(line -> assertThat(line).doesNotContain(PASSWORD));
        }
    }

    /**
     * Camel names an endpoint by its {@code toString()} (its log lines and exceptions, a route's {@code toString()}),
     * which masks credentials with {@code URISupport.sanitizeUri} on the normalized URI: the percent-encoded address of
     * an endpoint with more than one option kept its password in clear.
     */
    @Test
    void anEndpointAndItsRouteNamedAsTextMaskThePasswordOfTheAddress() throws Exception {
        String uri = "redis-delay:orders?consumerType=polling&address=" + addressWithPassword();
        CamelContext context = startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("orders").log("${body}");
            }
        });

        assertThat(context.getEndpoint(uri).toString()).as("the endpoint as text").doesNotContain(PASSWORD)
                .contains("xxxxxx");
        assertThat(context.getRoute("orders").toString()).as("its route as text").doesNotContain(PASSWORD);
    }

    @Test
    void theShardCountErrorDoesNotLogThePasswordOfTheAddress() throws Exception {
        String address = addressWithPassword();
        startContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders?address=" + address);
            }
        });
        try (LogLines log = LogLines.of(QueueGuard.class)) {
            startContext(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:in").to("redis-delay:orders?shards=2&address=" + address);
                }
            });

            await().atMost(Duration.ofSeconds(15)).until(() -> log.lines().stream().anyMatch(l -> l.startsWith("ERROR")));
            assertThat(log.lines()).allSatisfy(line -> assertThat(line).doesNotContain(PASSWORD));
        }
    }

    /**
     * Redisson reads user-info without a colon as a password ({@code redis://password@host:port}), which Camel's
     * {@code sanitizeUri} (masking what follows a user and a colon, up to the last {@code @}) left in clear in the
     * error naming the address; and a password in its query, which Redisson ignores, is quoted where the error names
     * what it would ignore too.
     */
    @ParameterizedTest
    @CsvSource({
            "redis://s3cretPw@queues.example, redis://xxxxxx@queues.example",
            "redis://default:s3cret@Pw@queues.example, redis://default:xxxxxx@queues.example",
            "redis://queues.example:6379?password=s3cretPw, redis://queues.example:6379?password=xxxxxx" })
    void theErrorNamingAnInvalidAddressMasksEveryPasswordRedissonWouldRead(String address, String masked)
            throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders?address=" + address);
            }
        });

        assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("address '" + masked + "'").message().doesNotContain("s3cret");
    }

    /** The connection that errors and the dev console name masks a password given without a user too. */
    @Test
    void theErrorOfAnAddressBesideAClientMasksAPasswordGivenWithoutAUser() throws Exception {
        CamelContext context = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").to("redis-delay:orders");
            }
        });
        // beside the component's client
        context.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration()
                .setAddress("redis://" + PASSWORD + "@queues.example:6379");

        assertThatThrownBy(context::start).rootCause().isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("address redis://xxxxxx@queues.example:6379").message()
                .doesNotContain(PASSWORD);
    }
}
