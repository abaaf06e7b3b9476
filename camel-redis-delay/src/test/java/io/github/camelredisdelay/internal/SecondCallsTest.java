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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SecondCallsTest {

    private static final Duration LINK_BOUND = Duration.ofNanos(300_000);
    private static final long LONG_LINK = 500_000;
    private static final long SHORT_LINK = 60_000;

    @Test
    void onALongLinkASecondCallLeavesOnceAQuorumIsQueued() {
        for (SecondCalls calls : new SecondCalls[] {
                SecondCalls.onLongLink(LINK_BOUND), SecondCalls.onLongLinkOrWhenFaster(LINK_BOUND) }) {
            assertThat(calls.allowed(SecondCalls.LONG_LINK_QUORUM - 1, LONG_LINK)).isFalse();
            assertThat(calls.allowed(SecondCalls.LONG_LINK_QUORUM, LONG_LINK)).isTrue();
            assertThat(calls.timedWay(LONG_LINK)).as("a long link's waits say nothing about a short one's").isNull();
        }
    }

    @Test
    void noSecondCallLeavesNorIsARequestTimedBeforeTheLinkIsMeasured() {
        SecondCalls calls = SecondCalls.onLongLinkOrWhenFaster(LINK_BOUND);
        assertThat(calls.allowed(100, 0)).isFalse();
        assertThat(calls.timedWay(0)).isNull();
        assertThat(calls.allowed(SecondCalls.SHORT_LINK_QUORUM, SHORT_LINK)).as("once it is, the trial's first run")
                .isTrue();
    }

    @Test
    void withoutATrialNoSecondCallLeavesOnAShortLink() {
        SecondCalls calls = SecondCalls.onLongLink(LINK_BOUND);
        assertThat(calls.allowed(100, SHORT_LINK)).isFalse();
        assertThat(calls.allowed(100, 0)).as("a link not measured yet").isFalse();
        assertThat(calls.timedWay(SHORT_LINK)).isNull();
    }

    @Test
    void aTrialLetsASecondCallLeaveWithTwoQueuedInItsRunsOfThatWay() {
        SecondCalls calls = SecondCalls.onLongLinkOrWhenFaster(LINK_BOUND);
        for (int request = 0; request < 2 * WayTrial.SAMPLES; request++) {
            boolean secondCallWay = request / WayTrial.RUN % 2 == 0;
            assertThat(calls.timedWay(SHORT_LINK)).as("request %d", request).isEqualTo(secondCallWay);
            assertThat(calls.allowed(SecondCalls.SHORT_LINK_QUORUM, SHORT_LINK)).isEqualTo(secondCallWay);
            assertThat(calls.allowed(SecondCalls.SHORT_LINK_QUORUM - 1, SHORT_LINK)).isFalse();
            calls.record(secondCallWay, 100_000);
        }
    }

    @Test
    void aSecondCallLeavesOnAShortLinkWhereRequestsWaitedLessWithIt() {
        SecondCalls calls = SecondCalls.onLongLinkOrWhenFaster(LINK_BOUND);
        runTrial(calls, 80_000, 100_000);
        assertTheChosenWayThroughItsStretch(calls, true, SecondCalls.SHORT_LINK_QUORUM, 80_000);
    }

    @Test
    void noSecondCallLeavesOnAShortLinkWhereRequestsWaitedLongerWithIt() {
        SecondCalls calls = SecondCalls.onLongLinkOrWhenFaster(LINK_BOUND);
        runTrial(calls, 130_000, 100_000);
        assertTheChosenWayThroughItsStretch(calls, false, 100, 100_000);
        assertThat(calls.allowed(100, LONG_LINK)).as("the link, not the trial, decides on a long one").isTrue();
    }

    /**
     * Through the stretch a trial chose, each request is timed the chosen way, and a second call may leave with
     * {@code queued} requests waiting only if that way has one; each request takes {@code nanos}.
     */
    private static void assertTheChosenWayThroughItsStretch(
            SecondCalls calls, boolean secondCallChosen, int queued,
            long nanos) {
        for (int request = 0; request < WayTrial.CHOSEN_WAITS; request++) {
            assertThat(calls.timedWay(SHORT_LINK)).isEqualTo(secondCallChosen);
            assertThat(calls.allowed(queued, SHORT_LINK)).isEqualTo(secondCallChosen);
            calls.record(secondCallChosen, nanos);
        }
    }

    /** One whole trial, requests with a second call or without taking the time given. */
    private static void runTrial(SecondCalls calls, long withSecondCallNanos, long withoutNanos) {
        for (int request = 0; request < 2 * WayTrial.SAMPLES; request++) {
            boolean secondCallWay = calls.timedWay(SHORT_LINK);
            calls.record(secondCallWay, secondCallWay ? withSecondCallNanos : withoutNanos);
        }
    }
}
