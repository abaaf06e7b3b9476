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
package io.github.camelredisdelay;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.CamelSide;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.spi.ReactiveExecutor;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What {@link OpenUnitOfWork#endAfterThrow} runs of what Camel left queued on the thread's reactive executor, where a
 * step that throws an {@code Error} leaves the steps behind it queued. Camel's executor takes a step off the queue
 * before it runs it, so a step that throws each time it runs runs once: the drain, which logs such an {@code Error} and
 * goes on, ends with the queue.
 */
@CamelSide
class OpenUnitOfWorkTest {

    @Test
    void aQueuedStepThatThrowsAnErrorEachTimeItRunsRunsOnceAndTheStepsBehindItRun() throws Exception {
        try (CamelContext context = new DefaultCamelContext()) {
            context.start();
            ReactiveExecutor executor = context.getCamelContextExtension().getReactiveExecutor();
            AtomicInteger poisonRuns = new AtomicInteger();
            AtomicInteger laterRuns = new AtomicInteger();
            Runnable poison = () -> {
                poisonRuns.incrementAndGet();
                throw new StackOverflowError("poison");
            };

            // the executor's queue is the thread's own: all on one thread, which the timeout ends if the drain loops
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
                assertThatThrownBy(() -> executor.schedule(() -> {
                    executor.schedule(poison);
                    executor.schedule(poison);
                    executor.schedule(laterRuns::incrementAndGet);
                    throw new StackOverflowError("first");
                })).hasMessage("first");
                assertThat(poisonRuns).as("runs before the drain").hasValue(0);

                assertThat(OpenUnitOfWork.endAfterThrow(new DefaultExchange(context))).as("left open").isFalse();
            });

            assertThat(poisonRuns).as("runs of the two throwing steps").hasValue(2);
            assertThat(laterRuns).as("runs of the step behind them").hasValue(1);
        }
    }
}
