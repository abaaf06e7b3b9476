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

import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.apache.camel.CamelContext;
import org.apache.camel.spi.ShutdownStrategy;

/**
 * How a stopping consumer waits for the work it has under way (reads, and exchanges fetched but not finished): within
 * the shutdown strategy's timeout, while the leases of what it fetched are still kept alive, so that this work is
 * settled or handed back rather than left to run out its lease.
 */
final class StopWait {

    private StopWait() {
    }

    /**
     * Returns once {@code underWay} is 0, the shutdown strategy's time is up, or Redis cannot be reached (leases can
     * then be neither kept nor settled: waiting gains nothing).
     */
    static void forWorkUnderWay(CamelContext context, IntSupplier underWay, FetchFailures fetchFailures) {
        ShutdownStrategy shutdown = context.getShutdownStrategy();
        long deadline = System.nanoTime() + shutdown.getTimeUnit().toNanos(shutdown.getTimeout());
        try {
            while (underWay.getAsInt() > 0 && !shutdown.isTimeoutOccurred() && deadline - System.nanoTime() > 0
                    && !fetchFailures.isDown()) {
                TimeUnit.MILLISECONDS.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
