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

import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.impl.engine.DefaultAsyncProcessorAwaitManager;
import org.apache.camel.spi.AsyncProcessorAwaitManager;

/**
 * Camel's await manager, whose threads (a {@code ProducerTemplate}'s caller) register their wait for an exchange that
 * went on asynchronously only once someone looked at the waiting threads ({@link #browse}), at most 10 s later: the
 * exchange's routing went on and ended on another thread before its caller waited, as on a machine busy enough to keep
 * the caller off a core for a while.
 */
public final class LateWaitingAwaitManager extends DefaultAsyncProcessorAwaitManager {

    private final CountDownLatch browsed = new CountDownLatch(1);

    /** Puts one in {@code context}, not started yet, in place of Camel's. */
    public static void install(CamelContext context) {
        context.getCamelContextExtension().addContextPlugin(AsyncProcessorAwaitManager.class,
                new LateWaitingAwaitManager());
    }

    @Override
    public void await(Exchange exchange, CountDownLatch latch) {
        try {
            browsed.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        super.await(exchange, latch);
    }

    @Override
    public Collection<AwaitThread> browse() {
        Collection<AwaitThread> waiting = super.browse();
        browsed.countDown();
        return waiting;
    }
}
