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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

class ThreadDumpOnTimeoutTest {

    private static final int DEPTH = 20;

    private final Object lock = new Object();
    private final CountDownLatch holding = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Test
    void aDumpHasEveryThreadsWholeStackAndWhoHoldsTheLockItWaitsFor() throws Exception {
        Thread holder = new Thread(() -> holdLockAtDepth(DEPTH), "lock-holder");
        Thread waiter = new Thread(() -> {
            synchronized (lock) {
                // nothing: it only has to wait for the monitor
            }
        }, "lock-waiter");
        holder.start();
        try {
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            waiter.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> waiter.getState() == Thread.State.BLOCKED);

            String dump = ThreadDumpOnTimeout.threadDump("title");

            assertThat(dump).startsWith("title\n")
                    .contains("\"lock-waiter\" BLOCKED on java.lang.Object@")
                    .contains("owned by \"lock-holder\"");
            assertThat(dump.split(ThreadDumpOnTimeoutTest.class.getName() + ".holdLockAtDepth\\(", -1))
                    .hasSize(DEPTH + 1);
        } finally {
            release.countDown();
            holder.join(10_000);
            waiter.join(10_000);
        }
    }

    /** Holds the lock {@code depth} frames deep until released. */
    private void holdLockAtDepth(int depth) {
        if (depth > 1) {
            holdLockAtDepth(depth - 1);
            return;
        }
        synchronized (lock) {
            holding.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void aTimeoutInABeforeEachMethodPrintsTheDumpAndFailsAsBefore() {
        ConditionTimeoutException timeout = new ConditionTimeoutException("waited 10 s");
        ExtensionContext context = (ExtensionContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { ExtensionContext.class }, (proxy, method, args) -> {
                    assertThat(method.getName()).isEqualTo("getDisplayName");
                    return "setUp()";
                });
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        System.setErr(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThatThrownBy(() -> new ThreadDumpOnTimeout().handleBeforeEachMethodExecutionException(context, timeout))
                    .isSameAs(timeout);
        } finally {
            System.setErr(stderr);
        }

        assertThat(printed.toString(StandardCharsets.UTF_8))
                .startsWith("Threads when setUp() timed out waiting:\n")
                .contains("\"" + Thread.currentThread().getName() + "\" RUNNABLE");
    }

    @Test
    void otherFailuresPassThroughUntouched() {
        IllegalStateException failure = new IllegalStateException("not a timeout");

        // no context: a failure other than a timeout needs none
        assertThatThrownBy(() -> new ThreadDumpOnTimeout().handleTestExecutionException(null, failure))
                .isSameAs(failure);
    }
}
