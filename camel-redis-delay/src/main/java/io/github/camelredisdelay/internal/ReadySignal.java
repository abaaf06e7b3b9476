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
package io.github.camelredisdelay.internal;

/**
 * Lets the threads of a consumer wait, without holding a Redis connection, until their queue announces ready messages.
 * A thread notes {@link #generation()} before it reads, and after an empty read waits in {@link #awaitAfter} only while
 * nothing was announced since; so a notice that arrives during the read is never missed. Pub/sub may lose a notice,
 * hence the caller's bounded wait.
 */
public final class ReadySignal implements WakeListener {

    private long generation;
    private boolean closed;

    @Override
    public synchronized void messagesReady() {
        generation++;
        notifyAll();
    }

    @Override
    public void subscribed() {
        messagesReady();
    }

    public synchronized long generation() {
        return generation;
    }

    /**
     * Waits until a notice newer than {@code seen} arrives, the signal is closed, or {@code timeoutMs} passed.
     */
    public synchronized void awaitAfter(long seen, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        for (long left = timeoutMs; generation == seen && !closed && left > 0; left
                = (deadline - System.nanoTime()) / 1_000_000) {
            wait(left);
        }
    }

    /** Ends every wait, now and later: the consumer is stopping. */
    public synchronized void close() {
        closed = true;
        notifyAll();
    }
}
