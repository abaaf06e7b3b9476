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
package io.github.camelredisdelay.faults;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.github.camelredisdelay.embedded.RedisServerProcess;
import io.github.camelredisdelay.internal.QueueKeys;
import io.github.camelredisdelay.test.NeedsRedisProcess;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.github.camelredisdelay.test.RedisServerExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

import static org.awaitility.Awaitility.await;

/**
 * Base of the fault-injection tests: consumer JVMs that are stopped after each test whatever happened, a Redis-backed
 * {@link DeliveryLog} under the test's key prefix, and access to the private redis-server process for the tests that
 * stop, kill or restart it. After each test Redis is running again, for the tests that follow.
 */
@NeedsRedisProcess
abstract class FaultTestSupport extends RedisDelayTestSupport {

    /** How long a consumer JVM may take to start on a busy two-core machine. */
    static final Duration JVM_START_TIMEOUT = Duration.ofSeconds(60);

    private final List<ConsumerJvm> consumerJvms = new ArrayList<>();
    private String testName = "test";
    private int jvmCount;

    /** This module's {@code target} directory, where child JVM output and the results file go. */
    static Path targetDir() {
        return Path.of(System.getProperty("basedir", System.getProperty("user.dir")), "target");
    }

    @BeforeEach
    void rememberTestName(TestInfo info) {
        testName = getClass().getSimpleName() + "-" + info.getTestMethod().map(Method::getName).orElse("test");
    }

    @AfterEach
    void stopConsumerJvmsAndBringRedisBack() {
        stopConsumerJvms();
        consumerJvms.clear();
        RedisServerExtension.process().filter(process -> !process.isRunning()).ifPresent(RedisServerProcess::restart);
    }

    /**
     * The private redis-server process, for tests that stop, kill or restart Redis (the class is marked
     * {@link NeedsRedisProcess}, so it has one). When the user chose an external server with {@code REDIS_URL}, that
     * one is not ours to stop, so the test is skipped.
     */
    static RedisServerProcess redisProcess() {
        Optional<RedisServerProcess> process = RedisServerExtension.process();
        Assumptions.assumeTrue(process.isPresent(), "Redis is the external server at " + RedisServerExtension.REDIS_URL_ENV
                                                    + "; this fault test stops, kills or restarts Redis and only runs "
                                                    + "against the private redis-server process");
        return process.get();
    }

    /**
     * Waits until a queue holds nothing: no scheduled, ready or leased message is left, so no further delivery (and no
     * late duplicate) can happen.
     */
    void awaitQueueDrained(String queue) {
        await("queue " + queue + " drained").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> redis().getMap(key(queue, "msg")).size() == 0
                        && redis().getScoredSortedSet(key(queue, "due")).size() == 0
                        && redis().getStream(key(queue, "ready")).getPendingInfo(QueueKeys.GROUP).getTotal() == 0);
    }

    /**
     * Stops every consumer JVM of this test gracefully: each settles what it has fetched, so the delivery log is
     * complete, including duplicates still waiting in a fetched batch.
     */
    void stopConsumerJvms() {
        for (ConsumerJvm jvm : consumerJvms) {
            jvm.close();
        }
    }

    /** The key of this test's delivery log list. */
    String deliveryLogKey() {
        return keyPrefix + ":deliveries";
    }

    /** The delivery log consumer JVMs of this test write to, read through the test's own client. */
    DeliveryLog redisDeliveryLog() {
        return DeliveryLog.inRedis(redis(), deliveryLogKey());
    }

    /**
     * Starts a consumer JVM on {@code queue} and waits until it consumes; it is stopped after the test.
     *
     * @param endpointOptions query string of the consumer endpoint
     */
    ConsumerJvm startConsumerJvm(String queue, String endpointOptions, long workMillis) {
        ConsumerJvm jvm = launchConsumerJvm(queue, endpointOptions, workMillis);
        return jvm.awaitReady(redis(), JVM_START_TIMEOUT);
    }

    /** Like {@link #startConsumerJvm} but returns at once; call {@link ConsumerJvm#awaitReady} later. */
    ConsumerJvm launchConsumerJvm(String queue, String endpointOptions, long workMillis) {
        return launchConsumerJvm(queue, endpointOptions, workMillis, false);
    }

    /**
     * Like {@link #launchConsumerJvm(String, String, long)}; with {@code notesBodies} the JVM notes each delivery under
     * its body rather than its message id.
     */
    ConsumerJvm launchConsumerJvm(String queue, String endpointOptions, long workMillis, boolean notesBodies) {
        return launchConsumerJvm(consumerJvmOptions(queue, endpointOptions, workMillis, notesBodies));
    }

    /**
     * Options of a consumer JVM of this test, with a shutdown timeout of
     * {@value ConsumerJvm#DEFAULT_SHUTDOWN_TIMEOUT_SECONDS} s, for {@link #launchConsumerJvm(ConsumerJvm.Options)}.
     */
    ConsumerJvm.Options consumerJvmOptions(String queue, String endpointOptions, long workMillis, boolean notesBodies) {
        return new ConsumerJvm.Options(
                RedisServerExtension.redisUrl(), keyPrefix, queue, deliveryLogKey(),
                endpointOptions, workMillis, notesBodies, ConsumerJvm.DEFAULT_SHUTDOWN_TIMEOUT_SECONDS, "", "");
    }

    /** Starts a consumer JVM with these options and returns at once; it is stopped after the test. */
    ConsumerJvm launchConsumerJvm(ConsumerJvm.Options options) {
        ConsumerJvm jvm = ConsumerJvm.start(options, testName + "-" + keyPrefix.replace(':', '-') + "-jvm" + (++jvmCount));
        consumerJvms.add(jvm);
        return jvm;
    }
}
