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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;

import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static java.util.concurrent.CompletableFuture.completedFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@link GroupCommit} on its own: which requests travel together, and who gets which result. A request left without its
 * result would block its caller, hence the time limit.
 */
@Timeout(30)
class GroupCommitTest {

    /** One call under way at a time: a link bound no round trip reaches, and no trial of a second call. */
    private static final SecondCalls NEVER = SecondCalls.onLongLink(Duration.ofNanos(Long.MAX_VALUE));
    /** The floor of a link measured short (any time under the bound of the tests that use it). */
    private static final long MEASURED_SHORT_LINK = 1;
    /** A call's failure never fails the requests queued behind it: they are sent in the next call. */
    private static final Predicate<Throwable> NO_FAILURE_FAILS_QUEUED = failure -> false;

    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final List<List<Integer>> calls = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopCallers() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * A group commit whose requests are their own keys, completed on the thread that gets the reply, with one call
     * under way at a time.
     */
    private static GroupCommit<Integer, Integer> commit(
            Function<List<Integer>, CompletionStage<List<Integer>>> send,
            int maxBatch, ToLongFunction<Integer> size, long maxSize) {
        return new GroupCommit<>(send, maxBatch, size, maxSize, Runnable::run, n -> n, NEVER, NO_FAILURE_FAILS_QUEUED);
    }

    /** A call that records its requests and answers each with its square; the first answers once released. */
    private Function<List<Integer>, CompletionStage<List<Integer>>> squares(CountDownLatch firstCallMayReturn) {
        return requests -> {
            calls.add(List.copyOf(requests));
            List<Integer> results = requests.stream().map(n -> n * n).toList();
            return calls.size() == 1 ? answerOnceReleased(firstCallMayReturn, results) : completedFuture(results);
        };
    }

    private CompletableFuture<List<Integer>> answerOnceReleased(CountDownLatch release, List<Integer> results) {
        return CompletableFuture.supplyAsync(() -> {
            awaitRelease(release);
            return results;
        }, callers);
    }

    @Test
    void aLoneCallerSendsAtOnceAndAlone() throws Exception {
        GroupCommit<Integer, Integer> commit = commit(squares(new CountDownLatch(0)), 10, n -> 1, Long.MAX_VALUE);

        assertThat(commit.submit(3)).isEqualTo(9);
        assertThat(commit.submit(4)).isEqualTo(16);
        assertThat(calls).containsExactly(List.of(3), List.of(4));
    }

    @Test
    void callersArrivingDuringACallShareTheNextOneAndEachGetsItsOwnResult() {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = commit(squares(firstCallMayReturn), 10, n -> 1, Long.MAX_VALUE);
        CompletableFuture<Integer> first = submitFirst(commit, 1);

        List<CompletableFuture<Integer>> queued = queueBehind(commit, 2, 5);
        firstCallMayReturn.countDown();

        assertThat(first.join()).isEqualTo(1);
        assertThat(queued).extracting(CompletableFuture::join).containsExactly(4, 9, 16, 25);
        assertThat(calls).hasSize(2);
        assertThat(calls.get(1)).containsExactlyInAnyOrder(2, 3, 4, 5);
    }

    @Test
    void theResultsOfOneCallAreHandedOutInOneTaskOnTheCompleter() {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        List<String> completerTasks = new CopyOnWriteArrayList<>();
        Executor completer = task -> {
            completerTasks.add("task");
            task.run();
        };
        GroupCommit<Integer, Integer> commit
                = new GroupCommit<>(
                        squares(firstCallMayReturn), 10, n -> 1, Long.MAX_VALUE, completer, n -> n, NEVER,
                        NO_FAILURE_FAILS_QUEUED);
        CompletableFuture<Integer> first = commit.submitAsync(1).toCompletableFuture();
        List<CompletableFuture<Integer>> queued = IntStream.rangeClosed(2, 5)
                .mapToObj(n -> commit.submitAsync(n).toCompletableFuture()).toList();
        assertThat(commit.queuedCount()).isEqualTo(4);
        firstCallMayReturn.countDown();

        assertThat(first.join()).isEqualTo(1);
        assertThat(queued).extracting(CompletableFuture::join).containsExactly(4, 9, 16, 25);
        assertThat(calls).hasSize(2);
        assertThat(completerTasks).as("one per call, not one per request").hasSize(2);
    }

    @Test
    void aCallerThatWaitsIsWokenWithoutTheCompleter() throws Exception {
        List<Runnable> neverRun = new CopyOnWriteArrayList<>();
        GroupCommit<Integer, Integer> commit
                = new GroupCommit<>(
                        squares(new CountDownLatch(0)), 10, n -> 1, Long.MAX_VALUE, neverRun::add, n -> n, NEVER,
                        NO_FAILURE_FAILS_QUEUED);

        assertThat(commit.submit(3)).isEqualTo(9);
        assertThat(neverRun).as("completer tasks").isEmpty();
    }

    @Test
    void aCallCarriesAtMostMaxBatchRequests() {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = commit(squares(firstCallMayReturn), 3, n -> 1, Long.MAX_VALUE);
        submitFirst(commit, 0);

        List<CompletableFuture<Integer>> queued = queueBehind(commit, 1, 7);
        firstCallMayReturn.countDown();

        assertThat(queued).extracting(CompletableFuture::join).containsExactly(1, 4, 9, 16, 25, 36, 49);
        assertThat(calls).hasSize(4).allSatisfy(call -> assertThat(call).hasSizeLessThanOrEqualTo(3));
    }

    @Test
    void aCallCarriesAtMostMaxSizeAndALargerRequestGoesAlone() {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = commit(squares(firstCallMayReturn), 100, n -> n, 10);
        submitFirst(commit, 1);

        List<CompletableFuture<Integer>> queued = new ArrayList<>();
        for (int n : List.of(4, 5, 20, 3)) {
            queued.add(CompletableFuture.supplyAsync(() -> submitted(commit, n), callers));
            int expected = queued.size();
            soon().until(() -> commit.queuedCount() == expected);
        }
        firstCallMayReturn.countDown();

        assertThat(queued).extracting(CompletableFuture::join).containsExactly(16, 25, 400, 9);
        assertThat(calls).containsExactly(List.of(1), List.of(4, 5), List.of(20), List.of(3));
    }

    @Test
    void aFailedCallFailsEveryRequestItCarriedAndTheNextCallStillRuns() throws Exception {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = commit(requests -> {
            calls.add(List.copyOf(requests));
            if (calls.size() == 2) {
                throw new IllegalStateException("Redis said no");
            }
            return calls.size() == 1 ? answerOnceReleased(firstCallMayReturn, requests) : completedFuture(requests);
        }, 10, n -> 1, Long.MAX_VALUE);
        CompletableFuture<Integer> first = submitFirst(commit, 1);
        List<CompletableFuture<Integer>> failing = queueBehind(commit, 2, 3);

        firstCallMayReturn.countDown();

        assertThat(first.join()).isEqualTo(1);
        for (CompletableFuture<Integer> request : failing) {
            assertThatThrownBy(request::join).hasRootCauseInstanceOf(IllegalStateException.class)
                    .hasRootCauseMessage("Redis said no");
        }
        assertThat(commit.submit(4)).isEqualTo(4);
    }

    @Test
    void aCallThatFailsAsTheQueuedWouldFailsThemUnsentAndTheNextRequestIsSentAgain() throws Exception {
        CountDownLatch firstCallMayFail = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(requests -> {
            calls.add(List.copyOf(requests));
            if (calls.size() > 1) {
                return completedFuture(requests);
            }
            return CompletableFuture.supplyAsync(() -> {
                awaitRelease(firstCallMayFail);
                throw new IllegalStateException("Redis did not answer");
            }, callers);
        }, 10, n -> 1, Long.MAX_VALUE, Runnable::run, n -> n, NEVER, IllegalStateException.class::isInstance);
        CompletableFuture<Integer> first = submitFirst(commit, 1);
        List<CompletableFuture<Integer>> queued = queueBehind(commit, 2, 3);

        firstCallMayFail.countDown();

        assertThatThrownBy(first::join).hasRootCauseMessage("Redis did not answer");
        for (CompletableFuture<Integer> request : queued) {
            assertThatThrownBy(request::join).hasRootCauseMessage("Redis did not answer");
        }
        assertThat(calls).as("the queued requests were never sent").containsExactly(List.of(1));
        assertThat(commit.queuedCount()).isZero();
        assertThat(commit.submit(4)).isEqualTo(4);
    }

    @Test
    void aCallReturningTooFewResultsFailsItsRequestsAndTheNextCallStillRuns() throws Exception {
        GroupCommit<Integer, Integer> commit = commit(requests -> {
            calls.add(List.copyOf(requests));
            return completedFuture(calls.size() == 1 ? List.of() : requests);
        }, 10, n -> 1, Long.MAX_VALUE);

        assertThatThrownBy(() -> submitted(commit, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("returned 0 results");
        assertThat(commit.submit(2)).isEqualTo(2);
    }

    @Test
    void anInterruptedCallerStillQueuedIsWithdrawnAndNeverSent() throws Exception {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = commit(squares(firstCallMayReturn), 10, n -> 1, Long.MAX_VALUE);
        CompletableFuture<Integer> first = submitFirst(commit, 1);
        CompletableFuture<Thread> waiter = new CompletableFuture<>();
        CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
            waiter.complete(Thread.currentThread());
            try {
                return new AssertionError("returned " + commit.submit(2));
            } catch (InterruptedException e) {
                return e;
            }
        }, callers);
        soon().until(() -> commit.queuedCount() == 1);

        waiter.get().interrupt();
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        firstCallMayReturn.countDown();

        assertThat(first.join()).isEqualTo(1);
        assertThat(commit.submit(3)).isEqualTo(9);
        assertThat(calls).containsExactly(List.of(1), List.of(3));
    }

    @Test
    void manyCallersGetTheirOwnResultsWhateverTheGrouping() {
        GroupCommit<Integer, Integer> commit = commit(squares(new CountDownLatch(0)), 16, n -> 1, Long.MAX_VALUE);

        List<CompletableFuture<List<Integer>>> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int base = t * 1_000;
            threads.add(CompletableFuture.supplyAsync(() -> IntStream.range(base, base + 500)
                    .map(n -> submitted(commit, n) - n * n).boxed().toList(), callers));
        }

        threads.forEach(thread -> assertThat(thread.join()).hasSize(500).containsOnly(0));
        assertThat(calls.stream().mapToInt(List::size).sum()).isEqualTo(4_000);
    }

    @Test
    void onALongLinkAQuorumQueuedBehindACallLeavesInASecondCallUnderWay() {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(
                squares(firstCallMayReturn), 10, n -> 1,
                Long.MAX_VALUE, Runnable::run, n -> n, SecondCalls.onLongLink(Duration.ZERO), NO_FAILURE_FAILS_QUEUED);
        CompletableFuture<Integer> first = submitFirst(commit, 1);

        List<CompletableFuture<Integer>> belowQuorum = queueInOrder(commit, 2, 3, 4);
        assertThat(calls).hasSize(1);
        CompletableFuture<Integer> quorum = CompletableFuture.supplyAsync(() -> submitted(commit, 5), callers);

        assertThat(quorum.join()).isEqualTo(25);
        assertThat(belowQuorum).extracting(CompletableFuture::join).containsExactly(4, 9, 16);
        assertThat(first).isNotDone();
        assertThat(calls.get(1)).containsExactly(2, 3, 4, 5);
        firstCallMayReturn.countDown();
        assertThat(first.join()).isEqualTo(1);
    }

    @Test
    void aSecondCallLeavesOnlyOnceEveryCallOfTheLastWindowTookTheLinkBound() throws Exception {
        CountDownLatch firstBlocked = new CountDownLatch(1);
        CountDownLatch secondBlocked = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(requests -> {
            calls.add(List.copyOf(requests));
            List<Integer> results = requests.stream().map(n -> n * n).toList();
            if (requests.contains(1000) || requests.contains(2000)) {
                // released by the test, and never before the bound: how fast the test runs must not shorten it
                return answerOnceReleased(requests.contains(1000) ? firstBlocked : secondBlocked, results)
                        .thenApplyAsync(answer -> answer, CompletableFuture.delayedExecutor(3, TimeUnit.MILLISECONDS, callers));
            }
            // every other call takes 3 ms, longer than the bound
            return CompletableFuture.supplyAsync(() -> results,
                    CompletableFuture.delayedExecutor(3, TimeUnit.MILLISECONDS, callers));
        }, 10, n -> 1, Long.MAX_VALUE, Runnable::run, n -> n, SecondCalls.onLongLink(Duration.ofMillis(2)),
                NO_FAILURE_FAILS_QUEUED);

        // no window yet: a quorum waits for the call under way
        CompletableFuture<Integer> blocked = submitFirst(commit, 1000);
        List<CompletableFuture<Integer>> queued = queueInOrder(commit, 21, 22, 23, 24);
        assertThat(calls).hasSize(1);
        firstBlocked.countDown();
        assertThat(blocked.join()).isEqualTo(1_000_000);
        assertThat(queued).extracting(CompletableFuture::join).containsExactly(441, 484, 529, 576);
        for (int n = 1; n <= RoundTrips.WINDOW - 2; n++) {
            assertThat(commit.submit(n)).isEqualTo(n * n);
        }
        assertThat(calls).hasSize(RoundTrips.WINDOW);

        // a window of calls of 3 ms or more: a quorum leaves beside the call under way
        CompletableFuture<Integer> blockedAgain = CompletableFuture.supplyAsync(() -> submitted(commit, 2000), callers);
        soon().until(() -> calls.size() == RoundTrips.WINDOW + 1);
        List<CompletableFuture<Integer>> belowQuorum = queueInOrder(commit, 31, 32, 33);
        CompletableFuture<Integer> quorum = CompletableFuture.supplyAsync(() -> submitted(commit, 34), callers);
        assertThat(quorum.join()).isEqualTo(34 * 34);
        assertThat(belowQuorum).extracting(CompletableFuture::join).containsExactly(961, 1024, 1089);
        assertThat(calls.get(RoundTrips.WINDOW + 1)).containsExactly(31, 32, 33, 34);
        assertThat(blockedAgain).isNotDone();
        secondBlocked.countDown();
        assertThat(blockedAgain.join()).isEqualTo(4_000_000);
    }

    @Test
    void failedCallsDoNotMakeTheLinkLong() {
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(requests -> {
            calls.add(List.copyOf(requests));
            List<Integer> squares = requests.stream().map(n -> n * n).toList();
            if (requests.contains(1000)) {
                return answerOnceReleased(release, squares);
            }
            if (requests.get(0) > RoundTrips.WINDOW) {
                return completedFuture(squares);
            }
            // the calls of the first window fail after 3 ms, longer than the bound, as calls to a Redis that times out
            return CompletableFuture.supplyAsync(() -> {
                throw new IllegalStateException("Redis timed out");
            }, CompletableFuture.delayedExecutor(3, TimeUnit.MILLISECONDS, callers));
        }, 10, n -> 1, Long.MAX_VALUE, Runnable::run, n -> n, SecondCalls.onLongLink(Duration.ofMillis(2)),
                NO_FAILURE_FAILS_QUEUED);
        for (int n = 1; n <= RoundTrips.WINDOW; n++) {
            int request = n;
            assertThatThrownBy(() -> commit.submit(request)).hasMessage("Redis timed out");
        }
        CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(() -> submitted(commit, 1000), callers);
        soon().until(() -> calls.size() == RoundTrips.WINDOW + 1);

        // a quorum queued behind the call under way: a second call would leave within submitAsync
        List<CompletableFuture<Integer>> quorum = IntStream.rangeClosed(21, 24)
                .mapToObj(n -> commit.submitAsync(n).toCompletableFuture()).toList();
        assertThat(calls).hasSize(RoundTrips.WINDOW + 1);
        release.countDown();
        assertThat(blocked.join()).isEqualTo(1_000_000);
        assertThat(quorum).extracting(CompletableFuture::join).containsExactly(441, 484, 529, 576);
    }

    @Test
    void onAShortLinkWhereATrialFoundRequestsWaitLessWithASecondCallTwoQueuedLeaveBesideTheCallUnderWay() {
        SecondCalls secondCalls = SecondCalls.onLongLinkOrWhenFaster(Duration.ofNanos(Long.MAX_VALUE));
        for (int request = 0; request < 2 * WayTrial.SAMPLES; request++) {
            boolean secondCallWay = secondCalls.timedWay(MEASURED_SHORT_LINK);
            secondCalls.record(secondCallWay, secondCallWay ? 50_000 : 100_000);
        }
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(requests -> {
            calls.add(List.copyOf(requests));
            List<Integer> results = requests.stream().map(n -> n * n).toList();
            return requests.contains(1000) ? answerOnceReleased(release, results) : completedFuture(results);
        }, 10, n -> 1, Long.MAX_VALUE, Runnable::run, n -> n, secondCalls, NO_FAILURE_FAILS_QUEUED);
        measureTheLink(commit);
        CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(() -> submitted(commit, 1000), callers);
        soon().until(() -> calls.size() == RoundTrips.WINDOW + 1);

        List<CompletableFuture<Integer>> alone = queueInOrder(commit, 21);
        assertThat(calls).hasSize(RoundTrips.WINDOW + 1);
        CompletableFuture<Integer> second = CompletableFuture.supplyAsync(() -> submitted(commit, 22), callers);

        assertThat(second.join()).isEqualTo(484);
        assertThat(alone).extracting(CompletableFuture::join).containsExactly(441);
        assertThat(blocked).isNotDone();
        assertThat(calls.get(RoundTrips.WINDOW + 1)).containsExactly(21, 22);
        release.countDown();
        assertThat(blocked.join()).isEqualTo(1_000_000);
    }

    @Test
    void theWaitsOfRequestsOnAMeasuredShortLinkFeedTheTrialOfASecondCall() throws Exception {
        SecondCalls secondCalls = SecondCalls.onLongLinkOrWhenFaster(Duration.ofNanos(Long.MAX_VALUE));
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(
                squares(new CountDownLatch(0)), 10, n -> 1, Long.MAX_VALUE, Runnable::run, n -> n, secondCalls,
                NO_FAILURE_FAILS_QUEUED);
        measureTheLink(commit);
        assertThat(secondCalls.timedWay(MEASURED_SHORT_LINK)).as("nothing timed before the link was measured: the "
                                                                 + "trial's first run, with a second call allowed")
                .isTrue();

        for (int n = 0; n < WayTrial.RUN; n++) {
            assertThat(commit.submit(n)).isEqualTo(n * n);
        }
        assertThat(secondCalls.timedWay(MEASURED_SHORT_LINK)).as("one run timed with a second call allowed, the next "
                                                                 + "without")
                .isFalse();
    }

    /** A window of lone calls ({@link RoundTrips}), after which the group commit knows the link's floor. */
    private static void measureTheLink(GroupCommit<Integer, Integer> commit) {
        for (int n = 1; n <= RoundTrips.WINDOW; n++) {
            assertThat(submitted(commit, n)).isEqualTo(n * n);
        }
    }

    @Test
    void requestsWithAKeyUnderWayWaitForTheCallThatCarriesIt() {
        CountDownLatch firstCallMayReturn = new CountDownLatch(1);
        GroupCommit<Integer, Integer> commit = new GroupCommit<>(
                squares(firstCallMayReturn), 10, n -> 1,
                Long.MAX_VALUE, Runnable::run, n -> n % 10, SecondCalls.onLongLink(Duration.ZERO), NO_FAILURE_FAILS_QUEUED);
        CompletableFuture<Integer> first = submitFirst(commit, 1);

        List<CompletableFuture<Integer>> queued = queueInOrder(commit, 2, 3, 4);
        CompletableFuture<Integer> sameKey = CompletableFuture.supplyAsync(() -> submitted(commit, 11), callers);
        soon().until(() -> calls.size() == 2 && commit.queuedCount() == 1);

        assertThat(queued).extracting(CompletableFuture::join).containsExactly(4, 9, 16);
        assertThat(calls.get(1)).containsExactly(2, 3, 4);
        assertThat(sameKey).isNotDone();
        firstCallMayReturn.countDown();
        assertThat(first.join()).isEqualTo(1);
        assertThat(sameKey.join()).isEqualTo(121);
        assertThat(calls).containsExactly(List.of(1), List.of(2, 3, 4), List.of(11));
    }

    /** {@link GroupCommit#submit}, for callers that cannot throw checked exceptions. */
    private static int submitted(GroupCommit<Integer, Integer> commit, int n) {
        try {
            return commit.submit(n);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Submits n on a thread of its own and waits until the call carrying it is under way. */
    private CompletableFuture<Integer> submitFirst(GroupCommit<Integer, Integer> commit, int n) {
        CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> submitted(commit, n), callers);
        soon().until(() -> calls.size() == 1);
        return first;
    }

    /** Submits from..to, each on a thread of its own, and waits until all of them queue behind the call under way. */
    private List<CompletableFuture<Integer>> queueBehind(GroupCommit<Integer, Integer> commit, int from, int to) {
        List<CompletableFuture<Integer>> queued = IntStream.rangeClosed(from, to)
                .mapToObj(n -> CompletableFuture.supplyAsync(() -> submitted(commit, n), callers))
                .toList();
        soon().until(() -> commit.queuedCount() == to - from + 1);
        return queued;
    }

    /** Submits each of ns on a thread of its own, in order: each queues before the next is submitted. */
    private List<CompletableFuture<Integer>> queueInOrder(GroupCommit<Integer, Integer> commit, int... ns) {
        List<CompletableFuture<Integer>> queued = new ArrayList<>();
        for (int n : ns) {
            int before = commit.queuedCount();
            queued.add(CompletableFuture.supplyAsync(() -> submitted(commit, n), callers));
            soon().until(() -> commit.queuedCount() == before + 1);
        }
        return queued;
    }

    /** Awaitility's wait, checking at once and then every 5 ms: these conditions hold within microseconds. */
    private static ConditionFactory soon() {
        return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5));
    }

    private static void awaitRelease(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
