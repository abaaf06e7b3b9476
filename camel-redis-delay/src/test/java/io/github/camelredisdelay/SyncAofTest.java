package io.github.camelredisdelay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.test.CamelNodes;
import io.github.camelredisdelay.test.MasterAndReplica;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code syncAof=true} against a master and a replica that both keep an append-only file: the branch that needs
 * {@code WAITAOF} (Redis 7.2 command set). Runs in the Valkey 8 pass only (surefire execution {@code valkey-8}), and
 * fails there, rather than passing, if the server has no {@code WAITAOF}.
 */
class SyncAofTest {

    private static final String PREFIX = "aof";

    @RegisterExtension
    static final MasterAndReplica SERVERS = new MasterAndReplica(RedisServerOptions.defaults().withAppendOnly(true));

    private final List<String> delivered = new CopyOnWriteArrayList<>();
    private final CamelNodes nodes = new CamelNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void theServerHasWaitAofAndAppendOnlyFiles() {
        assertThat(SERVERS.master().command("COMMAND", "INFO", "WAITAOF")).as("WAITAOF on " + SERVERS.master().version()).isNotBlank();
        assertThat(SERVERS.master().command("INFO", "persistence")).contains("aof_enabled:1");
        assertThat(SERVERS.replica().command("INFO", "persistence")).contains("aof_enabled:1");
    }

    @Test
    void aScheduleWithSyncAofReturnsOnceTheReplicaHasItAndTheConsumerAcknowledgesThroughSyncedWrites() throws Exception {
        String uri = "redis-delay:orders?syncReplicas=1&syncAof=true&syncTimeout=5s";
        ProducerTemplate producer = nodes.start(options -> {
            options.setAddress(SERVERS.master().uri());
            options.setKeyPrefix(PREFIX);
        }, new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("aof-consumer")
                        .process(e -> delivered.add(e.getMessage().getHeader(RedisDelayConstants.MESSAGE_ID, String.class)));
            }
        }).createProducerTemplate();

        producer.sendBodyAndHeader(uri + "&delay=1h", "later", RedisDelayConstants.MESSAGE_ID, "later-1");
        // read on the replica at once: WAITAOF returned only once the replica had it in its append-only file
        assertThat(SERVERS.replica().command("HEXISTS", PREFIX + ":{orders}:msg", "later-1")).isEqualTo("1");

        List<String> ids = List.of("a", "b", "c");
        ids.forEach(id -> producer.sendBodyAndHeader(uri, id, RedisDelayConstants.MESSAGE_ID, id));
        await().atMost(Duration.ofSeconds(10)).until(() -> delivered.size() >= ids.size());
        assertThat(delivered).containsExactlyInAnyOrderElementsOf(ids);
        await().atMost(Duration.ofSeconds(5)).until(() -> "1".equals(SERVERS.replica().command("HLEN", PREFIX + ":{orders}:msg")));
    }
}
