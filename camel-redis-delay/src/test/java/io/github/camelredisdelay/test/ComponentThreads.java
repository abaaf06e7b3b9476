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
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.camel.CamelContext;
import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * The component's threads (named {@code ... RedisDelay...}, Camel puts the context's name in each) of a stopped
 * CamelContext: none may outlive it.
 */
public final class ComponentThreads {

    private static final long GRACE_MS = 2_000;

    private ComponentThreads() {
    }

    /**
     * Fails, naming each thread with its stack, when a component thread of {@code context} is still alive
     * {@value #GRACE_MS} ms after the call (a thread that was ending as the context stopped gets that long).
     */
    public static void assertNoneLeftOf(CamelContext context) {
        String marker = "(" + context.getName() + ")";
        try {
            await().atMost(Duration.ofMillis(GRACE_MS)).pollInterval(Duration.ofMillis(20))
                    .until(() -> threadsOf(marker).isEmpty());
        } catch (ConditionTimeoutException e) {
            Map<Thread, StackTraceElement[]> left = threadsOf(marker);
            throw new AssertionError(
                    "Threads of the component outlived the stopped CamelContext " + context.getName() + ":\n"
                                     + left.entrySet().stream()
                                             .map(thread -> thread.getKey().getName() + " (" + thread.getKey().getState()
                                                            + ")\n    at "
                                                            + Arrays.stream(thread.getValue()).map(String::valueOf)
                                                                    .collect(Collectors.joining("\n    at ")))
                                             .collect(Collectors.joining("\n")));
        }
    }

    private static Map<Thread, StackTraceElement[]> threadsOf(String marker) {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(thread -> thread.getKey().getName().contains(marker)
                        && thread.getKey().getName().contains("RedisDelay"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
