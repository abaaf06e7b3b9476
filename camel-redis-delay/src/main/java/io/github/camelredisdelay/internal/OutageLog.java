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

import io.github.camelredisdelay.NotReplicatedException;
import org.redisson.client.RedisBusyException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisLoadingException;
import org.slf4j.Logger;

/**
 * Logs a Redis outage once when it starts and once when it ends, however often a loop retries in between; a connection
 * that keeps flapping is reported at most once a minute, so a loop's retries never flood the log. Each loop (a
 * consumer, a transfer task) has its own: an outage of a Redis that many queues share is logged once per loop, two WARN
 * lines and two INFO lines per queue with a consumer (the component page, "Many queues"). A shortage inside the client
 * (its connection pool exhausted, see {@link ClientShortage}; the client shut down, see {@link ClientShutDown}) is
 * reported as what it is, never as Redis being unreachable or refusing; so is an error Redis replied (a failing
 * script), and a write Redis applied that reached too few replicas ({@link NotReplicatedException}).
 */
public final class OutageLog {

    private final Logger log;
    private final String what;
    /** Written under the lock, read without it by the common case of {@link #succeeded()}. */
    private volatile boolean down;
    /**
     * Whether the failure that started this spell was an answer of Redis (an error it replied, a write short of
     * replicas), rather than Redis out of reach.
     */
    private boolean refused;
    /**
     * The error Redis replied to the last failed call of this spell, {@code null} when Redis was out of reach for it or
     * no spell is under way: a spell that began out of reach may go on with refusals, and the other way round. Written
     * under the lock.
     */
    private volatile RedisException refusal;
    private boolean reported;
    private final ReportGate gate = new ReportGate();

    /**
     * @param what names the looping activity in the messages, e.g. "Transfer task of queue orders"
     */
    public OutageLog(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    /**
     * Records a failed call.
     *
     * @return {@code true} when this failure was reported at WARN (the start of an outage, at most once a minute)
     */
    public synchronized boolean failed(Throwable cause) {
        String shortage = ClientShortage.advice(cause);
        String inClient = shortage != null ? shortage : ClientShutDown.advice(cause);
        // neither is an error Redis replied, though a shut-down client's error looks like one
        Throwable shortfall = inClient == null
                ? RootCause.first(Futures.unwrap(cause), NotReplicatedException.class::isInstance)
                : null;
        // the error Redis answered of its own, found in cause or among its causes: a refusal (a failing script, OOM,
        // READONLY, NOREPLICAS, NOPERM...) or, LOADING or BUSY, that it cannot serve yet (Redisson retries those, and
        // reports them once its retries are spent); null when Redis was out of reach
        RedisException answered = inClient == null && shortfall == null ? ErrorReply.in(cause) : null;
        boolean notYet = answered instanceof RedisLoadingException || answered instanceof RedisBusyException;
        RedisException reply = notYet ? null : answered;
        refusal = reply;
        if (down) {
            log.debug("{} still cannot reach Redis: {}", what, cause.toString());
            return false;
        }
        down = true;
        // Redis answered: its end is logged as the call succeeding again, not as Redis reached again
        refused = answered != null || shortfall != null;
        reported = gate.admits();
        if (reported) {
            if (shortage != null) {
                // Redisson's text goes on with the command and the script's source
                log.warn("{} failed: {}; retrying with back-off", what, shortage);
                log.debug("{} failed on: {}", what, cause.toString());
            } else if (inClient != null) {
                log.warn("{} failed: {}; retrying with back-off: {}", what, inClient, RedissonText.of(cause));
            } else if (shortfall != null) {
                log.warn("{} reached too few replicas; retrying with back-off: {}", what, shortfall.getMessage());
            } else if (notYet) {
                log.warn("{} cannot use Redis yet, retrying with back-off: {}", what, ErrorReply.plainly(answered));
            } else if (refused) {
                // the component's own explanation of the reply, if it gave one, then the reply said plainly
                Throwable failure = Futures.unwrap(cause);
                String text = failure == reply ? ErrorReply.plainly(reply) : failure.toString();
                log.warn("{} failed on an error Redis replied; retrying with back-off: {}", what,
                        text.contains(ErrorReply.words(reply)) ? text : text + "; " + ErrorReply.plainly(reply));
            } else {
                log.warn("{} cannot reach Redis, retrying with back-off: {}", what,
                        RootCause.added(RedissonText.of(cause), Futures.unwrap(cause)));
            }
        } else {
            log.debug("{} cannot reach Redis again: {}", what, cause.toString());
        }
        return reported;
    }

    public void succeeded() {
        if (!down) {
            // every successful call of every loop comes here: no lock while Redis is fine
            return;
        }
        synchronized (this) {
            if (down) {
                down = false;
                if (reported) {
                    log.info(refused ? "{} succeeds again" : "{} reaches Redis again", what);
                }
                refusal = null;
            }
        }
    }

    /** The error Redis replied to the last failed call of the spell under way; {@code null} if it did not reply one. */
    public RedisException refusal() {
        return refusal;
    }

    public boolean isDown() {
        return down;
    }
}
