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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;

/**
 * Lets concurrent callers share calls to Redis (group commit). A caller that finds no call under way sends its request
 * at once, alone; requests that arrive while a call is under way queue up, and the moment it returns, everything queued
 * (up to {@code maxBatch} requests and {@code maxSize}) leaves in the next call, sent from the thread that received the
 * reply. A lone caller therefore never waits for company, and N busy callers share round trips and script calls instead
 * of queueing for them one by one. Every caller returns once its own request is done.
 * <p>
 * One call is under way at a time, unless {@link SecondCalls} lets a second one leave beside it: on a long link, or on
 * a short one where a trial finds that callers wait less with it. Requests with the same key never travel in two calls
 * under way at once, which could reach Redis in either order: they wait for the first.
 * <p>
 * The requests of a call get their results in one task on the {@code completer} given: callers that continue there (a
 * route after its schedule) cost the thread that received the reply one hand-off per call, not one each. A caller that
 * waits ({@link #submit}) is woken by the thread that received the reply, unless it saw the reply first: a caller with
 * nothing queued behind it and a short link may spin for it for a moment ({@link ReplySpin}).
 * <p>
 * A call that failed in a way the requests queued behind it would meet too (Redis did not answer) fails them with it,
 * unsent: while Redis is silent every caller fails within one call's time, not one call after another. Such a request
 * fails with a {@link NotSent} caused by the call's failure, so that its caller can tell it was not carried out.
 *
 * @param <T> a request
 * @param <R> its result
 */
public final class GroupCommit<T, R> {

    /** Most calls under way at once; measured through a long link, four did no better than two (design notes 13). */
    static final int MAX_CALLS_UNDER_WAY = 2;

    private final Function<List<T>, CompletionStage<List<R>>> send;
    private final int maxBatch;
    private final ToLongFunction<T> size;
    private final long maxSize;
    private final Executor completer;
    private final Function<T, ?> key;
    private final SecondCalls secondCalls;
    private final Predicate<Throwable> failsQueued;
    private final Deque<Turn<T, R>> queued = new ArrayDeque<>();
    private final Set<Object> keysUnderWay = new HashSet<>();
    private final RoundTrips roundTrips = new RoundTrips();
    private int callsUnderWay;
    /** {@code queued.size()}, for a caller that spins without the lock ({@link ReplySpin}). */
    private volatile int queuedSize;
    /** Whether a spinning caller is still alone: one supplier for every call, none allocated per schedule. */
    private final BooleanSupplier nothingQueued = () -> queuedSize == 0;

    /**
     * @param send        sends requests in one call; its stage completes with their results in the same order
     * @param maxBatch    most requests per call
     * @param size        the size of a request, in any unit
     * @param maxSize     most total size of the requests of one call, unless a single request is larger (it then goes
     *                    alone), so large messages do not pile up into one huge script call
     * @param completer   runs, once per call, the task that completes the stages of its requests
     * @param key         what requests that must reach Redis in the order they were submitted share (a message id)
     * @param secondCalls when a second call may leave while one is under way
     * @param failsQueued whether what a call failed with (unwrapped) fails the requests queued when it did, unsent
     */
    public GroupCommit(Function<List<T>, CompletionStage<List<R>>> send, int maxBatch, ToLongFunction<T> size,
                       long maxSize, Executor completer, Function<T, ?> key, SecondCalls secondCalls,
                       Predicate<Throwable> failsQueued) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, not " + maxBatch);
        }
        this.send = send;
        this.maxBatch = maxBatch;
        this.size = size;
        this.maxSize = maxSize;
        this.completer = completer;
        this.key = key;
        this.secondCalls = secondCalls;
        this.failsQueued = failsQueued;
    }

    /**
     * Sends the request, alone or with others, and returns its result.
     *
     * @throws RuntimeException     what the call that carried the request failed with; a {@link NotSent} when the call
     *                              ahead of it failed it unsent
     * @throws InterruptedException when the caller is interrupted while waiting; a request still queued is then
     *                              withdrawn, one already sent may or may not have been carried out
     */
    public R submit(T request) throws InterruptedException {
        Turn<T, R> turn = enqueue(request, true);
        try {
            return ReplySpin.await(turn.result(), roundTrips.floorNanos(), nothingQueued);
        } catch (InterruptedException e) {
            synchronized (this) {
                queued.remove(turn);
                queuedSize = queued.size();
            }
            throw e;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Sends the request, alone or with others, without waiting: the stage completes with its result, or with what the
     * call that carried it failed with (a {@link NotSent} when it failed unsent), on the {@code completer}.
     */
    public CompletionStage<R> submitAsync(T request) {
        return enqueue(request, false).result();
    }

    private Turn<T, R> enqueue(T request, boolean waited) {
        boolean start;
        Turn<T, R> turn;
        synchronized (this) {
            turn = new Turn<>(
                    request, new CompletableFuture<>(), waited, System.nanoTime(),
                    secondCalls.timedWay(roundTrips.floorNanos()));
            queued.add(turn);
            queuedSize = queued.size();
            start = mayStartCall();
        }
        if (start) {
            sendQueued();
        }
        return turn;
    }

    /**
     * Whether another call may leave now, counting it as under way if so: none is under way, or {@link SecondCalls}
     * allows a second. The caller holds the lock and, given true, calls {@link #sendQueued}.
     */
    private boolean mayStartCall() {
        boolean start = !queued.isEmpty()
                && (callsUnderWay == 0
                        || callsUnderWay < MAX_CALLS_UNDER_WAY
                                && secondCalls.allowed(queued.size(), roundTrips.floorNanos()));
        if (start) {
            callsUnderWay++;
        }
        return start;
    }

    /**
     * Sends the head of the queue, up to the first request whose key is in a call under way; when the reply is in,
     * sends what queued meanwhile, or stops. A call that completes before it returns (a client that refuses it at once,
     * being shut down) is followed by the next in this loop, not one stack frame deeper per call: with thousands of
     * calls queued, that would overflow the stack, and the requests of the call that overflowed would never complete.
     */
    private void sendQueued() {
        Batch<T, R> batch = nextBatch();
        while (batch != null) {
            batch = send(batch);
        }
    }

    /**
     * The head of the queue, taken off it; {@code null}, no longer counting a call under way, when nothing may leave.
     */
    private Batch<T, R> nextBatch() {
        List<Turn<T, R>> turns = new ArrayList<>();
        List<T> requests = new ArrayList<>();
        boolean anyNotWaited = false;
        synchronized (this) {
            long total = 0;
            while (turns.size() < maxBatch && !queued.isEmpty()
                    && (turns.isEmpty() || total + size.applyAsLong(queued.peek().request()) <= maxSize)
                    && keysUnderWay.add(key.apply(queued.peek().request()))) {
                Turn<T, R> turn = queued.poll();
                total += size.applyAsLong(turn.request());
                turns.add(turn);
                requests.add(turn.request());
                anyNotWaited |= !turn.waited();
            }
            queuedSize = queued.size();
            if (turns.isEmpty()) {
                // nothing left (another call took it), or the head's key is under way: a call under way looks again
                // when it returns
                callsUnderWay--;
                return null;
            }
        }
        return new Batch<>(turns, requests, anyNotWaited);
    }

    /**
     * Sends one call.
     *
     * @return what leaves next when the call completed before this returned, for {@link #sendQueued} to send; else
     *         {@code null}: the reply sends it
     */
    private Batch<T, R> send(Batch<T, R> batch) {
        long sentAt = System.nanoTime();
        CompletionStage<List<R>> call;
        try {
            call = send.apply(batch.requests());
        } catch (RuntimeException | Error e) {
            call = CompletableFuture.failedFuture(e);
        }
        Thread sender = Thread.currentThread();
        AtOnce atOnce = new AtOnce();
        call.whenComplete((results, failure) -> {
            boolean here = Thread.currentThread() == sender && atOnce.registering;
            // what queued meanwhile leaves first: handing out the results must not delay the next call
            Throwable cause = callFailure(batch.turns(), results, failure);
            Returned<T, R> returned = returned(batch, sentAt, failure, cause);
            if (returned.more() && !here) {
                sendQueued();
            }
            // a caller that waits only needs waking, which needs no other thread; and a completion thread that waits
            // (a route continued there, then scheduled synchronously) must not wait for a completion thread
            Throwable unsent = returned.settled().size() > batch.turns().size() ? new NotSent(cause) : null;
            settle(returned.settled(), batch.turns().size(), results, cause, unsent, true);
            if (batch.anyNotWaited() || unsent != null) {
                completer.execute(() -> settle(returned.settled(), batch.turns().size(), results, cause, unsent, false));
            }
            if (here) {
                atOnce.sendNext = returned.more();
            }
        });
        atOnce.registering = false;
        return atOnce.sendNext ? nextBatch() : null;
    }

    /**
     * Notes that a call returned: its round trip (when it succeeded), its keys no longer under way, and, when it failed
     * as the requests queued behind it would, those requests taken off the queue to fail unsent.
     *
     * @return the requests to settle (the call's, then those failed unsent), and whether another call may leave now
     */
    private synchronized Returned<T, R> returned(Batch<T, R> batch, long sentAt, Throwable failure, Throwable cause) {
        List<Turn<T, R>> settled = batch.turns();
        if (failure == null) {
            // a call that failed (a timeout, a lost connection) says nothing about the link or the waits
            long repliedAt = System.nanoTime();
            roundTrips.record(repliedAt - sentAt);
            for (Turn<T, R> turn : batch.turns()) {
                if (turn.timedWay() != null) {
                    secondCalls.record(turn.timedWay(), repliedAt - turn.submittedAt());
                }
            }
        }
        for (T request : batch.requests()) {
            keysUnderWay.remove(key.apply(request));
        }
        callsUnderWay--;
        if (failure != null && !queued.isEmpty() && failsQueued.test(cause)) {
            settled = new ArrayList<>(batch.turns());
            settled.addAll(queued);
            queued.clear();
            queuedSize = 0;
        }
        return new Returned<>(settled, mayStartCall());
    }

    /** What the call failed with, unwrapped; or that it returned other than one result per request. */
    private Throwable callFailure(List<Turn<T, R>> batch, List<R> results, Throwable failure) {
        Throwable cause = failure == null ? null : Futures.unwrap(failure);
        if (cause == null && (results == null || results.size() != batch.size())) {
            cause = new IllegalStateException(
                    "A call carrying " + batch.size() + " requests returned "
                                              + (results == null ? "no results" : results.size() + " results"));
        }
        return cause;
    }

    /**
     * Hands each request of a call whose caller waits (or, with {@code waited} false, does not) its outcome; when the
     * call failed, the requests it failed unsent (those from {@code carried} on) fail with {@code unsent}.
     */
    private void settle(
            List<Turn<T, R>> turns, int carried, List<R> results, Throwable cause, Throwable unsent,
            boolean waited) {
        for (int i = 0; i < turns.size(); i++) {
            Turn<T, R> turn = turns.get(i);
            if (turn.waited() != waited) {
                continue;
            }
            if (cause == null) {
                turn.result().complete(results.get(i));
            } else {
                turn.result().completeExceptionally(i < carried ? cause : unsent);
            }
        }
    }

    /** Requests waiting for a call. */
    int queuedCount() {
        return queuedSize;
    }

    /**
     * What a request fails with when the call ahead of it failed as it would have (Redis did not answer): it was never
     * sent, so Redis did not carry it out. Its cause is what that call failed with; its message is the cause's.
     */
    public static final class NotSent extends RuntimeException {

        private static final long serialVersionUID = 1L;

        NotSent(Throwable cause) {
            super(cause.getMessage(), cause, false, false);
        }
    }

    /** The requests of one call, and whether any of their callers does not wait for them. */
    private record Batch<T, R>(List<Turn<T, R>> turns, List<T> requests, boolean anyNotWaited) {
    }

    /** What a call's return settles, and whether another call may leave now. */
    private record Returned<T, R>(List<Turn<T, R>> settled, boolean more) {
    }

    /**
     * Whether a call's reply came while {@link #send} was still registering for it, on its thread (the call completed
     * at once), and whether the next call is then that thread's to send.
     */
    private static final class AtOnce {
        boolean registering = true;
        boolean sendNext;
    }

    /**
     * A request, where its result goes, whether a thread waits for it ({@link #submit}), when it was submitted and
     * which way {@link SecondCalls} times it ({@code null}: not timed).
     */
    private record Turn<T, R>(T request, CompletableFuture<R> result, boolean waited, long submittedAt,
            Boolean timedWay) {
    }
}
