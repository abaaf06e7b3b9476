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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ThreadDumpOnTimeoutTest {

    @Test
    void aDumpHasEveryThreadsWholeStack() {
        assertThat(ThreadDumpOnTimeout.threadDump("title"))
                .startsWith("title\n")
                .contains("\"" + Thread.currentThread().getName() + "\" RUNNABLE")
                .contains(ThreadDumpOnTimeoutTest.class.getName() + ".aDumpHasEveryThreadsWholeStack(");
    }

    @Test
    void otherFailuresPassThroughUntouched() {
        IllegalStateException failure = new IllegalStateException("not a timeout");

        // no context: a failure other than a timeout needs none
        assertThatThrownBy(() -> new ThreadDumpOnTimeout().handleTestExecutionException(null, failure))
                .isSameAs(failure);
    }
}
