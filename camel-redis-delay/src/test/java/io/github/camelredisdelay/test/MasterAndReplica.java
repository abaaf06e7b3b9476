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
package io.github.camelredisdelay.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.awaitility.Awaitility.await;

/**
 * A private master and one replica of it for the tests of one class ({@code @RegisterExtension static}), or for each
 * test (an instance field), from the binary {@code redis.test.binary} chooses; started before the class (each test)
 * once the replica's link is up and it acknowledges the master's writes (as WAIT counts), stopped after.
 */
public final class MasterAndReplica implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private static final Duration LINK_TIMEOUT = Duration.ofSeconds(20);
    /** Redis 7 and Valkey wait 5 s by default before a diskless full sync, in case more replicas come: none does. */
    private static final List<String> SYNC_AT_ONCE = List.of("--repl-diskless-sync-delay", "0");

    private final RedisServerOptions options;
    private RedisServerProcess master;
    private RedisServerProcess replica;
    private boolean perTest;

    /** Both servers start with {@code options}; the replica gets {@code --replicaof} on top. */
    public MasterAndReplica(RedisServerOptions options) {
        this.options = options;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        // JUnit calls no class-level callbacks of an extension in an instance field
        if (master == null) {
            perTest = true;
            start();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (perTest) {
            afterAll(context);
        }
    }

    private void start() {
        RedisBinary binary
                = RedisBinary.select(System.getProperty(RedisServerExtension.BINARY_PROPERTY, RedisBinary.PATH_CHOICE));
        master = RedisServerProcess.start(binary, optionsWith(SYNC_AT_ONCE));
        replica = RedisServerProcess.start(binary,
                optionsWith(List.of("--replicaof", master.host(), String.valueOf(master.port()))));
        await().atMost(LINK_TIMEOUT)
                .until(() -> replica.command("INFO", "replication").contains("master_link_status:up")
                        && "1".equals(master.command("WAIT", "1", "100")));
    }

    /** The options both servers start with, with {@code args} added to their extra arguments. */
    private RedisServerOptions optionsWith(List<String> args) {
        List<String> extraArgs = new ArrayList<>(options.extraArgs());
        extraArgs.addAll(args);
        return options.withExtraArgs(extraArgs.toArray(String[]::new));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (replica != null) {
            replica.close();
        }
        if (master != null) {
            master.close();
        }
    }

    public RedisServerProcess master() {
        return master;
    }

    public RedisServerProcess replica() {
        return replica;
    }
}
