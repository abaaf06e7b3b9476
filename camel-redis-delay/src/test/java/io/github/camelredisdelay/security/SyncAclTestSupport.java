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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.RedisDelayConfiguration;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.MasterAndReplica;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Base of the tests of {@code syncReplicas} and {@code syncAof} run by a user that holds the rules of
 * {@link ComponentAcl} and those the guide adds for them ({@link ComponentAcl#SYNC_REPLICAS_RULES},
 * {@link ComponentAcl#SYNC_AOF_RULES}): Redisson sends {@code WAIT} (or {@code WAITAOF}) after the writes, outside any
 * script. The master and its replica keep append-only files.
 */
abstract class SyncAclTestSupport {

    static final String USER = "camel-delay";
    private static final String PASSWORD = "sync-acl-secret";

    @RegisterExtension
    static final MasterAndReplica SERVERS = new MasterAndReplica(
            RedisServerOptions.defaults().withAppendOnly(true)
                    .withExtraArgs(userArgs()));

    final CamelNodes nodes = new CamelNodes();
    private final List<String> delivered = new CopyOnWriteArrayList<>();

    /**
     * The component's user, granted the component's rules and those the guide names for syncReplicas (a server without
     * {@code WAITAOF} refuses to start with a rule naming it: syncAof's are added where it runs).
     */
    private static String[] userArgs() {
        List<String> args = new ArrayList<>(List.of("--user", USER, "reset", "on", ">" + PASSWORD));
        String version = TestRedisBinary.version(TestRedisBinary.selected());
        args.addAll(List.of(ComponentAcl.rulesFor(version).split(" ")));
        args.add(ComponentAcl.SYNC_REPLICAS_RULES);
        return args.toArray(String[]::new);
    }

    @BeforeEach
    void forgetEarlierDenials() {
        SERVERS.master().command("ACL", "LOG", "RESET");
    }

    @AfterEach
    void stopNodesAndRequireNoDenials() {
        nodes.close();
        assertThat(AclLog.entries(SERVERS.master().command("ACL", "LOG")))
                .as("commands, keys or channels the server refused")
                .allMatch(denial -> denial.endsWith(ComponentAcl.REDISSON_CLUSTER_PROBE));
    }

    void loggedIn(RedisDelayConfiguration options) {
        options.setAddress(SERVERS.master().uri());
        options.setUsername(USER);
        options.setPassword(PASSWORD);
    }

    void assertSyncedQueueWorks(String sync) throws Exception {
        String uri = "redis-delay:synced?consumerType=polling&pollInterval=50&" + sync;
        ProducerTemplate producer = nodes.start(this::loggedIn, new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> delivered.add(e.getMessage().getBody(String.class)));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader(uri + "&delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later");
        producer.sendBodyAndHeader(uri, "now", RedisDelayConstants.MESSAGE_ID, "now");

        // WAIT made the producer wait until the replica had it
        assertThat(SERVERS.replica().command("HEXISTS", "camel:delay:{synced}:msg", "later")).isEqualTo("1");
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.contains("now"));
        // acknowledged through a synced write
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "0".equals(SERVERS.replica().command("HEXISTS", "camel:delay:{synced}:msg", "now")));
    }
}
