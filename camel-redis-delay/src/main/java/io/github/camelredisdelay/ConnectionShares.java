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

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;

import io.github.camelredisdelay.internal.SilentRedis;

/**
 * What every endpoint of one Redis connection (client) shares in a CamelContext, whatever its queue and key prefix.
 * Each connection has timer threads of its own: the first call on a client that has never reached its Redis blocks the
 * calling thread for the whole connect attempt ({@link io.github.camelredisdelay.internal.ConnectedClient}), so a
 * server that does not answer delays only the queues on it.
 *
 * @param transfer          runs the transfer tasks' steps, the wake channels' subscriptions and the checks of the
 *                          server
 * @param leases            extends the leases of every consumer's fetched messages
 * @param blockingReads     the permits of the consumer reads that block in Redis (RedisDelayConsumer): each such read
 *                          holds one of the client's pooled connections, so they are sized from its pool
 * @param probeRound        the write probes of the health checks of the connection's queues, sent together
 * @param silence           whether a stopping consumer found the connection's Redis silent, which the others then do
 *                          not wait for
 * @param statisticsSilence whether a monitoring read of a queue's counts found the connection's Redis silent, which the
 *                          monitoring reads of the other queues then do not wait for
 */
record ConnectionShares(
        ScheduledExecutorService transfer, ScheduledExecutorService leases, Semaphore blockingReads,
        ProbeRound probeRound, SilentRedis silence, SilentRedis statisticsSilence) {
}
