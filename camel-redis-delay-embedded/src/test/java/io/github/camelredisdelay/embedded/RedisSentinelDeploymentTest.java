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
package io.github.camelredisdelay.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisSentinelDeploymentTest {

    private static final Duration PROMOTION_TIMEOUT = Duration.ofSeconds(30);

    /** Shared by the tests that only look at a settled deployment. */
    private static RedisSentinelDeployment settled;

    @BeforeAll
    static void startSettledDeployment() {
        settled = start(RedisBinary.PATH_CHOICE);
    }

    @AfterAll
    static void closeSettledDeployment() {
        settled.close();
    }

    @Test
    void sentinelsNameTheFirstDataNodeAsMasterAndItsWritesReachTheReplica() {
        RedisServerProcess master = settled.dataNodes().get(0);
        RedisServerProcess replica = settled.dataNodes().get(1);

        assertThat(settled.master()).isSameAs(master);
        assertThat(settled.masterName()).isEqualTo("delay-master");
        assertThat(Info.field(replica.command("INFO", "replication"), "role")).contains("slave");
        master.command("SET", "order:1", "due");
        BoundedWait.until("the write is on the replica", Duration.ofSeconds(10),
                () -> "due".equals(replica.command("GET", "order:1")), () -> replica.command("INFO", "replication"));
    }

    @Test
    void sentinelAddressesAreLoopbackSentinelsThatKnowTheReplicaAndEachOther() {
        assertThat(settled.sentinelAddresses()).hasSize(3).allMatch(address -> address.startsWith("redis://127.0.0.1:"));
        for (RedisServerProcess sentinel : settled.sentinels()) {
            assertThat(Info.field(sentinel.command("INFO", "server"), "redis_mode")).contains("sentinel");
            assertThat(new SentinelView(sentinel, settled.masterName()).isSettled(1, 2)).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { RedisBinary.PATH_CHOICE, RedisBinary.EMBEDDED_CHOICE })
    void killingTheMasterMakesTheSentinelsPromoteTheReplica(String binary) {
        try (RedisSentinelDeployment deployment = start(binary)) {
            RedisServerProcess replica = deployment.dataNodes().get(1);

            RedisServerProcess killed = deployment.killMaster();

            assertThat(killed).isSameAs(deployment.dataNodes().get(0));
            assertThat(isAlive(killed.pid())).isFalse();
            BoundedWait.until("the replica is promoted", PROMOTION_TIMEOUT,
                    () -> deployment.master() == replica, deployment::toString);
            assertThat(Info.field(replica.command("INFO", "replication"), "role")).contains("master");
            assertThat(replica.command("SET", "after", "failover")).isEqualTo("OK");
        }
    }

    @Test
    void closeStopsEveryProcessAndDeletesTheirDirectories() {
        RedisSentinelDeployment deployment = start(RedisBinary.PATH_CHOICE);
        List<RedisServerProcess> all = new ArrayList<>(deployment.sentinels());
        all.addAll(deployment.dataNodes());
        List<Long> pids = all.stream().map(RedisServerProcess::pid).toList();
        List<Path> dirs = all.stream().map(RedisServerProcess::directory).toList();

        deployment.close();

        assertThat(pids).noneMatch(RedisSentinelDeploymentTest::isAlive);
        assertThat(dirs).allMatch(dir -> !dir.toFile().exists());
    }

    @Test
    void masterNameWithWhiteSpaceIsRejected() {
        assertThatThrownBy(() -> RedisSentinelDeployment.start(RedisBinary.select(RedisBinary.PATH_CHOICE), "a b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'a b'");
    }

    private static boolean isAlive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private static RedisSentinelDeployment start(String binary) {
        return RedisSentinelDeployment.start(RedisBinary.select(binary), "delay-master");
    }
}
