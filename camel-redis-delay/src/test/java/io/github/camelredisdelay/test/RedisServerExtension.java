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

import java.util.Optional;

import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Provides one Redis server per test JVM to every test class annotated with
 * {@code @ExtendWith(RedisServerExtension.class)}, stopped when the JVM's tests are done. The server is, in this order:
 * <ol>
 * <li>the one at the {@value #REDIS_URL_ENV} environment variable, used as is;</li>
 * <li>a Testcontainers container with an append-only file, when a Docker engine answers and can run it: the image of
 * the server the system property {@value #BINARY_PROPERTY} names ({@code redis:7.2}, {@code redis:6.2} or
 * {@code valkey/valkey:8.0});</li>
 * <li>a private {@code redis-server} process with an append-only file, from {@code PATH}, the embedded jar or Valkey as
 * that property says ({@code path}, the default, {@code embedded} or {@code valkey}).</li>
 * </ol>
 * When none can be started the test class fails; it is never skipped. A class marked {@link NeedsRedisProcess} gets the
 * private process even where the others get a container: a second server, started for the first such class.
 */
public final class RedisServerExtension implements BeforeAllCallback, BeforeEachCallback {

    /** Environment variable with the URL of an existing server to use instead of starting one. */
    public static final String REDIS_URL_ENV = "REDIS_URL";
    /** System property choosing the private process' binary: {@code path} (default) or {@code embedded}. */
    public static final String BINARY_PROPERTY = "redis.test.binary";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RedisServerExtension.class);

    /** Static so tests can reach the server from anywhere; JUnit's root store owns and closes it. */
    private static volatile RunningRedis running;

    private static final String SHARED = "shared";
    private static final String PRIVATE_PROCESS = "private process";

    @Override
    public void beforeAll(ExtensionContext context) {
        select(context);
    }

    /** Again per test, as a {@code @Nested} class may need another server than the class around it. */
    @Override
    public void beforeEach(ExtensionContext context) {
        select(context);
    }

    private static void select(ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(NAMESPACE);
        RunningRedis shared = store.getOrComputeIfAbsent(SHARED, key -> startRedis(), RunningRedis.class);
        boolean needsProcess = AnnotationSupport.isAnnotated(context.getRequiredTestClass(), NeedsRedisProcess.class);
        running = needsProcess && shared.process().isEmpty() && !userChoseServer()
                ? store.getOrComputeIfAbsent(PRIVATE_PROCESS, key -> startPrivateProcess(), RunningRedis.class)
                : shared;
    }

    /** Where clients connect, e.g. {@code redis://127.0.0.1:41234}. */
    public static String redisUrl() {
        return running().url();
    }

    /** The private process, present only when that is what runs, for fault tests that stop or kill it. */
    public static Optional<RedisServerProcess> process() {
        return running().process();
    }

    /** The server's {@code redis_version}, e.g. {@code 7.0.15}. */
    public static String version() {
        return running().version();
    }

    private static RunningRedis running() {
        RunningRedis current = running;
        if (current == null) {
            throw new IllegalStateException(
                    "No Redis server yet: annotate the test class with "
                                            + "@ExtendWith(RedisServerExtension.class), and use it from tests or @BeforeAll, not earlier");
        }
        return current;
    }

    private static RunningRedis startRedis() {
        RunningRedis redis = chooseAndStart();
        System.out.println("[redis-test] using redis-server " + redis.version() + " (" + redis.description() + ")");
        return redis;
    }

    private static RunningRedis startPrivateProcess() {
        RunningRedis redis = RunningRedis.privateProcess(RedisBinary.select(binaryChoice()));
        System.out.println("[redis-test] using redis-server " + redis.version() + " (" + redis.description()
                           + ") for the tests that stop Redis");
        return redis;
    }

    private static RunningRedis chooseAndStart() {
        if (userChoseServer()) {
            return RunningRedis.external(System.getenv(REDIS_URL_ENV).strip(), REDIS_URL_ENV);
        }
        if (RedisContainer.dockerAvailable()) {
            String image = RedisContainer.imageFor(binaryChoice());
            try {
                return RedisContainer.start(image);
            } catch (RuntimeException e) {
                // A Docker engine that cannot pull or run the image (offline CI, no registry access) must not
                // stop the tests while a private process can still run them.
                System.out.println("[redis-test] Docker answers but " + image + " did not start, using a private process: "
                                   + e);
            }
        }
        return RunningRedis.privateProcess(RedisBinary.select(binaryChoice()));
    }

    private static boolean userChoseServer() {
        String url = System.getenv(REDIS_URL_ENV);
        return url != null && !url.isBlank();
    }

    private static String binaryChoice() {
        return System.getProperty(BINARY_PROPERTY, RedisBinary.PATH_CHOICE);
    }
}
