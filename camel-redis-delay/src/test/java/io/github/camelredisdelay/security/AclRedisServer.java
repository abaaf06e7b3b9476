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

import java.util.ArrayList;
import java.util.List;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;

/**
 * A private redis-server with ACL users defined at start: one for the component, with the rules under test, and any
 * others a test needs (such as an old application's).
 *
 * <p>
 * The {@code default} user (a client that does not log in) keeps only what {@link RedisServerProcess} needs to run the
 * server, {@code PING}, {@code INFO} and {@code SHUTDOWN}, plus {@code ACL LOG} so the test can read the denials (and
 * {@code ACL SETUSER} and {@code CLIENT PAUSE}, to change rules and hold writes); it has no key, no channel and no
 * other command. A client that did not log in as the component's user can therefore do nothing, as if the default user
 * were disabled.
 */
final class AclRedisServer implements AutoCloseable {

    private final RedisServerProcess process;

    private AclRedisServer(RedisServerProcess process) {
        this.process = process;
    }

    /** A user the server defines at start. */
    record User(String name, String password, String rules) {
    }

    /**
     * Starts {@code binary}, with {@code user} logging in with {@code password} and granted {@code rules} (ACL rules
     * separated by spaces, as in {@code ACL SETUSER}).
     */
    static AclRedisServer start(RedisBinary binary, String user, String password, String rules) {
        return start(binary, List.of(new User(user, password, rules)));
    }

    /** Starts {@code binary} with these users besides the {@code default} one. */
    static AclRedisServer start(RedisBinary binary, List<User> users) {
        List<String> args = new ArrayList<>(
                List.of("--user", "default", "on", "nopass", "resetkeys", "resetchannels",
                        "-@all", "+ping", "+info", "+shutdown", "+acl|log", "+acl|setuser",
                        "+client|pause"));
        for (User user : users) {
            args.addAll(List.of("--user", user.name(), "reset", "on", ">" + user.password()));
            args.addAll(List.of(user.rules().split(" ")));
        }
        return new AclRedisServer(
                RedisServerProcess.start(binary,
                        RedisServerOptions.defaults().withExtraArgs(args.toArray(new String[0]))));
    }

    /** Where clients connect, {@code redis://127.0.0.1:<port>}; they log in with the user's name and password. */
    String address() {
        return process.uri();
    }

    /** What the server refused since the last {@link #forgetDenials()}, newest first (see {@link AclLog}). */
    List<String> denials() {
        return AclLog.entries(process.command("ACL", "LOG"));
    }

    /** Adds {@code rules} to those of {@code user}; they apply at once, to its connections too. */
    void changeRules(String user, String... rules) {
        List<String> command = new ArrayList<>(List.of("ACL", "SETUSER", user));
        command.addAll(List.of(rules));
        process.command(command.toArray(new String[0]));
    }

    /** Holds every client's writes for {@code millis} ({@code CLIENT PAUSE ... WRITE}); reads and ACL changes go on. */
    void pauseWrites(long millis) {
        process.command("CLIENT", "PAUSE", String.valueOf(millis), "WRITE");
    }

    /** Clears the server's ACL log. */
    void forgetDenials() {
        process.command("ACL", "LOG", "RESET");
    }

    /** The server's {@code redis_version}. */
    String version() {
        return process.version();
    }

    @Override
    public void close() {
        process.close();
    }
}
