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

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReplySpinTest {

    /** Longer than any test takes: a spin that ends did so for another reason than its time. */
    private static final long LONG = Duration.ofSeconds(30).toNanos();

    private final CompletableFuture<String> neverReplied = new CompletableFuture<>();
    private final AtomicInteger looks = new AtomicInteger();

    /** Well under {@link RoundTrips#LONG_LINK_NANOS}: a round trip short enough to spin for. */
    private static final long SHORT = RoundTrips.LONG_LINK_NANOS / 2;

    @Test
    void aCallerDoesNotSpinWhileTheRoundTripIsUnknown() throws Exception {
        assertThat(ReplySpin.await(CompletableFuture.completedFuture("stored"), 0, this::alone)).isEqualTo("stored");
        assertThat(looks).hasValue(0);
    }

    @Test
    void aCallerDoesNotSpinOnALongLink() throws Exception {
        assertThat(ReplySpin.await(CompletableFuture.completedFuture("stored"), RoundTrips.LONG_LINK_NANOS,
                this::alone)).isEqualTo("stored");
        assertThat(looks).hasValue(0);
    }

    @Test
    void aCallerAloneGetsItsReplyFromAnotherThread() throws Exception {
        // a whole trial's worth, so that spinning and parked waits are both among them
        for (int i = 0; i < 2 * WayTrial.SAMPLES; i++) {
            CompletableFuture<Integer> reply = new CompletableFuture<>();
            reply.completeAsync(() -> 7);
            assertThat(ReplySpin.await(reply, SHORT, this::alone)).isEqualTo(7);
        }
        assertThat(looks).hasPositiveValue();
    }

    /**
     * A reply that came in before its caller waited for it (the caller was off its processor meanwhile) tells nothing
     * about spinning or parking; timed, such replies made a trial of a busy machine a tie, which keeps parking.
     */
    @Test
    void aReplyAlreadyInIsNotTimed() throws Exception {
        WayTrial trial = new WayTrial(1);
        for (int i = 0; i < 2 * WayTrial.SAMPLES; i++) {
            assertThat(ReplySpin.await(CompletableFuture.completedFuture("stored"), SHORT, this::alone, trial))
                    .isEqualTo("stored");
        }
        // the trial has timed no wait, so it has not ended: its first wait still spins, as a trial's first does
        assertThat(trial.costlierNext()).isTrue();
    }

    @Test
    void aSpinEndsWhenTheCallerIsNoLongerAlone() {
        ReplySpin.spin(neverReplied, LONG, () -> looks.incrementAndGet() < 3);
        assertThat(looks).hasValue(3);
    }

    @Test
    void aSpinEndsOnceTheReplyIsIn() {
        ReplySpin.spin(neverReplied, LONG, () -> looks.incrementAndGet() < 3 || neverReplied.complete("stored"));
        assertThat(neverReplied).isCompletedWithValue("stored");
        assertThat(looks).hasValue(3);
    }

    @Test
    void aSpinForAReplyThatNeverComesEndsWhenItsTimeIsUp() {
        long started = System.nanoTime();
        ReplySpin.spin(neverReplied, Duration.ofMillis(1).toNanos(), this::alone);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(1));
        assertThat(looks).hasPositiveValue();
    }

    @Test
    void onlyOneCallerAtATimeMaySpin() throws Exception {
        CountDownLatch waiting = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // the first caller waits alone until the second one was turned away
        Thread first = new Thread(() -> {
            try {
                ReplySpin.await(neverReplied, SHORT, () -> {
                    waiting.countDown();
                    try {
                        release.await(5, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return false;
                });
            } catch (InterruptedException | ExecutionException e) {
                throw new IllegalStateException(e);
            }
        });
        first.start();
        try {
            assertThat(waiting.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(ReplySpin.await(CompletableFuture.completedFuture("stored"), SHORT, this::alone))
                    .isEqualTo("stored");
            assertThat(looks).hasValue(0);
        } finally {
            release.countDown();
            neverReplied.complete("stored");
            first.join(5_000);
        }
        assertThat(first.isAlive()).isFalse();
    }

    private boolean alone() {
        looks.incrementAndGet();
        return true;
    }
}
