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

import java.util.List;
import java.util.function.BooleanSupplier;

import io.github.camelredisdelay.internal.Delivery;
import org.apache.camel.Exchange;

/**
 * Turns the reads of one shard into a receiver's exchange ({@link RedisDelayPollingConsumer}): the exchange of the
 * first delivery that goes to the caller. While a read brought only deliveries settled instead (sent to the dead-letter
 * queue as exhausted or unreadable), the shard is read again, so that a message ready behind them goes to the caller,
 * but not after the take's round is over: a backlog of such messages holds a {@code receiveNoWait} up one round (250
 * ms) at most, and a receive no longer than its timeout (or that round); the next receives settle the rest.
 */
final class OneShardTake {

    private final RedisDelayEndpoint endpoint;
    /** Whether the receiving consumer runs: what a read brings once it stopped goes back to the queue. */
    private final BooleanSupplier running;

    OneShardTake(RedisDelayEndpoint endpoint, BooleanSupplier running) {
        this.endpoint = endpoint;
        this.running = running;
    }

    /**
     * The exchange of {@code deliverer}'s reads within {@code round}.
     *
     * @return the exchange, or {@code null} when a read brought nothing or did not answer, or the round is over
     */
    Exchange takeOf(Deliverer deliverer, ShardRead read, Exchange taker, TakeRound round) {
        boolean firstRead = true;
        while (true) {
            List<Delivery> batch = read.read(firstRead);
            firstRead = false;
            Exchange exchange = batch == null ? null : toExchange(deliverer, batch, taker);
            if (exchange != null || !noneTaken(batch) || round.over()) {
                return exchange;
            }
        }
    }

    /**
     * The exchange of the first fetched delivery that goes to the caller, or {@code null}. One a {@code taker} takes is
     * settled when the taker is done at the latest, should Camel drop it rather than hand its completion over. What a
     * read under way when the consumer stopped brings goes back to the queue, its delivery uncounted, as a route
     * consumer's does: no caller of a stopped consumer gets it.
     */
    Exchange toExchange(Deliverer deliverer, List<Delivery> batch, Exchange taker) {
        if (!running.getAsBoolean()) {
            deliverer.handBack(batch);
            return null;
        }
        for (Delivery delivery : batch) {
            Exchange exchange = endpoint.createExchange();
            DeliveryCompletion completion = deliverer.prepare(delivery, exchange, false);
            if (completion != null) {
                if (taker != null) {
                    deliverer.keepLease(delivery);
                    taker.getExchangeExtension().addOnCompletion(completion.whenTakerDone());
                }
                return exchange;
            }
        }
        return null;
    }

    /**
     * Whether a read brought deliveries, none of which goes to the caller while the consumer runs: each was settled
     * instead (sent to the dead-letter queue as exhausted or unreadable, say), so asking again brings the next message.
     */
    private boolean noneTaken(List<Delivery> batch) {
        return batch != null && !batch.isEmpty() && running.getAsBoolean();
    }

    /** One read of a shard, {@code null} when it did not answer; the first of a take may wait in Redis. */
    @FunctionalInterface
    interface ShardRead {
        List<Delivery> read(boolean firstRead);
    }
}
