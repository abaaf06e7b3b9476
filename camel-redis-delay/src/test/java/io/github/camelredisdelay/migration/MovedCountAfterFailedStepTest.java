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
package io.github.camelredisdelay.migration;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.ConnectedClient;
import io.github.camelredisdelay.internal.Envelope;
import io.github.camelredisdelay.internal.EnvelopeCodec;
import io.github.camelredisdelay.internal.LegacyDelayedQueue;
import io.github.camelredisdelay.internal.MigrationTask;
import io.github.camelredisdelay.internal.ShardedQueue;
import io.github.camelredisdelay.internal.WriteSync;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A migration step that fails after it removed its batch from the legacy keys (here: clearing the batch's marks is
 * refused once, as a Redis error or a failover would fail it) moved that batch all the same: {@code migrationMoved}
 * must count it, or the statistics the guide tells operators to read say fewer messages moved than did.
 */
@NeedsRedisProcess
class MovedCountAfterFailedStepTest extends RedisDelayTestSupport {

    private static final String USER = "migrator-" + UUID.randomUUID().toString().substring(0, 8);
    private static final String PASSWORD = "migrator-secret";
    private static final int MESSAGES = 5;

    private RedissonClient migrator;

    @BeforeEach
    void migratorRefusedSrem() {
        server().command("ACL", "SETUSER", USER, "on", ">" + PASSWORD, "~*", "&*", "+@all", "-srem");
        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(RedisServerExtension.redisUrl()).setUsername(USER).setPassword(PASSWORD)
                .setRetryAttempts(0);
        migrator = Redisson.create(config);
    }

    @AfterEach
    void deleteMigrator() {
        if (migrator != null) {
            migrator.shutdown();
        }
        server().command("ACL", "DELUSER", USER);
    }

    @Test
    void aBatchRemovedFromTheLegacyKeysIsCountedAsMovedWhenClearingItsMarksFailedOnce() {
        LegacyKeys keys = new LegacyKeys("legacy-" + UUID.randomUUID().toString().substring(0, 8), keyPrefix);
        for (int i = 0; i < MESSAGES; i++) {
            keys.offerDueAt(redis(), "m" + i, System.currentTimeMillis() + 3_600_000);
        }
        ConnectedClient client = ConnectedClient.borrowed(migrator);
        MigrationTask task = new MigrationTask(
                new LegacyDelayedQueue(client, keyPrefix, keys.name()),
                ShardedQueue.of(client, keyPrefix, "orders", 1, WriteSync.NONE, Runnable::run),
                MovedCountAfterFailedStepTest::envelope);

        // written to the queue and removed from the legacy keys; clearing the marks fails
        assertThatThrownBy(task::step).hasStackTraceContaining("migrated-forget.lua");
        assertThat(keys.left(redis())).as("messages the legacy keys hold").isZero();

        server().command("ACL", "SETUSER", USER, "+srem");
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            task.step();
            return task.progress().left() == 0;
        });

        assertThat(redis().getMap(key("orders", "msg")).size()).as("messages in the queue").isEqualTo(MESSAGES);
        assertThat(redis().getSet(key("orders", "migrated")).size()).as("marks left").isZero();
        assertThat(task.progress().moved()).as("migrationMoved").isEqualTo(MESSAGES);
    }

    private static RedisServerProcess server() {
        return RedisServerExtension.process()
                .orElseThrow(() -> new IllegalStateException("this test adds an ACL user to its private redis-server"));
    }

    private static byte[] envelope(byte[] value) {
        return EnvelopeCodec.encode(new Envelope(new String(value, StandardCharsets.UTF_8), Map.of()));
    }
}
