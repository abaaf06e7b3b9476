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
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * Lets concurrent callers share calls to Redis (group commit). At most {@code maxCalls} calls are under way at a time.
 * A caller that finds fewer sends its request at once, alone; requests that arrive while all are under way queue up,
 * and the moment one returns, everything queued (up to {@code maxBatch} requests and {@code maxSize}) leaves in the
 * next call, sent from the thread that received the reply. A lone caller therefore never waits for company, and N busy
 * callers share round trips and script calls instead of queueing for them one by one; with more than one call under
 * way, callers need not wait for a round trip they missed the start of. Requests with the same {@code order} key are
 * never in two calls under way at once, so they are carried out in the order they were submitted. Every caller returns
 * once its own request is done. The requests of a call get their results in one task on the {@code completer} given:
 * callers that continue there (a route after its schedule) cost the thread that received the reply one hand-off per
 * call, not one each. A caller that waits ({@link #submit}) is woken by the thread that received the reply.
 *
 * @param <T> a request
 * @param <R> its result
 */
public final class GroupCommit<T, R> {

    private final Function<List<T>, CompletionStage<List<R>>> send;
    private final int maxBatch;
    private final ToLongFunction<T> size;
    private final long maxSize;
    private final Executor completer;
    private final int maxCalls;
    private final Function<T, Object> order;
    private final Deque<Turn<T, R>> queued = new ArrayDeque<>();
    /** The order keys of the requests of the calls under way, with how many requests have each. */
    private final Map<Object, Integer> keysUnderWay = new HashMap<>();
    private int callsUnderWay;

    /**
     * @param send     sends requests in one call; its stage completes with their results in the same order
     * @param maxBatch most requests per call
     * @param size     the size of a request, in any unit
     * @param maxSize  most total size of the requests of one call, unless a single request is larger (it then goes
     *                 alone), so large messages do not pile up into one huge script call
     */
    public GroupCommit(Function<List<T>, CompletionStage<List<R>>> send, int maxBatch, ToLongFunction<T> size,
                       long maxSize) {
        this(send, maxBatch, size, maxSize, Runnable::run);
    }

    /**
     * @param send      sends requests in one call; its stage completes with their results in the same order
     * @param maxBatch  most requests per call
     * @param size      the size of a request, in any unit
     * @param maxSize   most total size of the requests of one call, unless a single request is larger (it then goes
     *                  alone), so large messages do not pile up into one huge script call
     * @param completer runs, once per call, the task that completes the stages of its requests
     */
    public GroupCommit(Function<List<T>, CompletionStage<List<R>>> send, int maxBatch, ToLongFunction<T> size,
                       long maxSize, Executor completer) {
        this(send, maxBatch, size, maxSize, completer, 1, request -> request);
    }

    /**
     * @param send      sends requests in one call; its stage completes with their results in the same order
     * @param maxBatch  most requests per call
     * @param size      the size of a request, in any unit
     * @param maxSize   most total size of the requests of one call, unless a single request is larger (it then goes
     *                  alone), so large messages do not pile up into one huge script call
     * @param completer runs, once per call, the task that completes the stages of its requests
     * @param maxCalls  most calls under way at once
     * @param order     the key of a request: requests with equal keys are carried out in the order submitted
     */
    public GroupCommit(Function<List<T>, CompletionStage<List<R>>> send, int maxBatch, ToLongFunction<T> size,
                       long maxSize, Executor completer, int maxCalls, Function<T, Object> order) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, not " + maxBatch);
        }
        if (maxCalls < 1) {
            throw new IllegalArgumentException("maxCalls must be at least 1, not " + maxCalls);
        }
        this.send = send;
        this.maxBatch = maxBatch;
        this.size = size;
        this.maxSize = maxSize;
        this.completer = completer;
        this.maxCalls = maxCalls;
        this.order = order;
    }

    /**
     * Sends the request, alone or with others, and returns its result.
     *
     * @throws RuntimeException     what the call that carried the request failed with
     * @throws InterruptedException when the caller is interrupted while waiting; a request still queued is then
     *                              withdrawn, one already sent may or may not have been carried out
     */
    public R submit(T request) throws InterruptedException {
        Turn<T, R> turn = enqueue(request, true);
        try {
            return turn.result().get();
        } catch (InterruptedException e) {
            synchronized (this) {
                queued.remove(turn);
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
     * call that carried it failed with, on the {@code completer}.
     */
    public CompletionStage<R> submitAsync(T request) {
        return enqueue(request, false).result();
    }

    private Turn<T, R> enqueue(T request, boolean waited) {
        Turn<T, R> turn = new Turn<>(request, order.apply(request), new CompletableFuture<>(), waited);
        boolean send;
        synchronized (this) {
            queued.add(turn);
            send = callsUnderWay < maxCalls;
            if (send) {
                callsUnderWay++;
            }
        }
        if (send) {
            sendQueued();
        }
        return turn;
    }

    /**
     * Sends what is queued, in one call under way already counted in {@code callsUnderWay}; when the reply is in, sends
     * what queued meanwhile, or ends the call.
     */
    private void sendQueued() {
        List<Turn<T, R>> batch = new ArrayList<>();
        List<T> requests = new ArrayList<>();
        boolean anyNotWaited = false;
        synchronized (this) {
            takeBatch(batch);
            if (batch.isEmpty()) {
                // all that is queued waits for calls under way with the same keys; their replies send it
                callsUnderWay--;
                return;
            }
        }
        for (Turn<T, R> turn : batch) {
            requests.add(turn.request());
            anyNotWaited |= !turn.waited();
        }
        boolean handOff = anyNotWaited;
        CompletionStage<List<R>> call;
        try {
            call = send.apply(requests);
        } catch (RuntimeException | Error e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((results, failure) -> {
            // what queued meanwhile leaves first: handing out the results must not delay the next call
            boolean more;
            synchronized (this) {
                for (Turn<T, R> turn : batch) {
                    keysUnderWay.computeIfPresent(turn.key(), (key, count) -> count == 1 ? null : count - 1);
                }
                more = !queued.isEmpty();
                if (!more) {
                    callsUnderWay--;
                }
            }
            if (more) {
                sendQueued();
            }
            Throwable cause = callFailure(batch, results, failure);
            // a caller that waits only needs waking, which needs no other thread; and a completion thread that waits
            // (a route continued there, then scheduled synchronously) must not wait for a completion thread
            settle(batch, results, cause, true);
            if (handOff) {
                completer.execute(() -> settle(batch, results, cause, false));
            }
        });
    }

    /**
     * Moves the requests of the next call from the queue to {@code batch}, oldest first, within the limits; passes over
     * a request whose key a call under way carries, and every later one with that key. Holds the lock.
     */
    private void takeBatch(List<Turn<T, R>> batch) {
        long total = 0;
        Set<Object> passedOver = null;
        for (Iterator<Turn<T, R>> it = queued.iterator(); it.hasNext() && batch.size() < maxBatch;) {
            Turn<T, R> turn = it.next();
            if (keysUnderWay.containsKey(turn.key()) || passedOver != null && passedOver.contains(turn.key())) {
                if (passedOver == null) {
                    passedOver = new HashSet<>();
                }
                passedOver.add(turn.key());
                continue;
            }
            long turnSize = size.applyAsLong(turn.request());
            if (!batch.isEmpty() && total + turnSize > maxSize) {
                break;
            }
            it.remove();
            total += turnSize;
            batch.add(turn);
        }
        for (Turn<T, R> turn : batch) {
            keysUnderWay.merge(turn.key(), 1, Integer::sum);
        }
    }

    /** What the call failed with, unwrapped; or that it returned other than one result per request. */
    private Throwable callFailure(List<Turn<T, R>> batch, List<R> results, Throwable failure) {
        Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                ? wrapped.getCause() : failure;
        if (cause == null && (results == null || results.size() != batch.size())) {
            cause = new IllegalStateException(
                    "A call carrying " + batch.size() + " requests returned "
                                              + (results == null ? "no results" : results.size() + " results"));
        }
        return cause;
    }

    /** Hands each request of a call whose caller waits (or, with {@code waited} false, does not) its outcome. */
    private void settle(List<Turn<T, R>> batch, List<R> results, Throwable cause, boolean waited) {
        for (int i = 0; i < batch.size(); i++) {
            Turn<T, R> turn = batch.get(i);
            if (turn.waited() != waited) {
                continue;
            }
            if (cause == null) {
                turn.result().complete(results.get(i));
            } else {
                turn.result().completeExceptionally(cause);
            }
        }
    }

    /** Requests waiting for a call. */
    synchronized int queuedCount() {
        return queued.size();
    }

    /** A request, its order key, where its result goes, and whether a thread waits for it ({@link #submit}). */
    private record Turn<T, R>(T request, Object key, CompletableFuture<R> result, boolean waited) {
    }
}
