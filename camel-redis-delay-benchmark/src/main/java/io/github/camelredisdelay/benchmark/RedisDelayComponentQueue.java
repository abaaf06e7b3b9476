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
package io.github.camelredisdelay.benchmark;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.RedisDelayConstants;
import io.github.camelredisdelay.internal.QueueKeys;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Message;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;

/**
 * Our side: a {@code redis-delay} queue driven through Camel, messages scheduled with a {@link ProducerTemplate} and
 * consumed by a route, with the component's default options apart from {@code concurrentConsumers}.
 */
final class RedisDelayComponentQueue implements QueueUnderTest {

    /** Producer threads of {@link #preload}: each schedule waits for its reply, so parallel calls fill the pipe. */
    private static final int PRELOAD_THREADS = 16;

    private final BenchRedis redis;
    private final CamelContext camel;
    private final String queue;
    private final String readyKey;
    private final ProducerTemplate template;
    private final Endpoint producer;
    private final Endpoint waitingProducer;
    private final Endpoint batchProducer;
    private String routeId;
    private Endpoint consumer;

    /**
     * @param keyPrefix a fresh prefix per run: the component is configured with it before the endpoints exist
     */
    RedisDelayComponentQueue(BenchRedis redis, CamelContext camel, String keyPrefix, String queue) {
        this.redis = redis;
        this.camel = camel;
        this.queue = queue;
        // the stream the transfer moves due messages to; its length tells how many were transferred
        this.readyKey = QueueKeys.of(keyPrefix, queue).ready();
        camel.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().setKeyPrefix(keyPrefix);
        // getEndpoint starts it, and with it the queue's transfer task, before anything is timed
        this.producer = camel.getEndpoint("redis-delay:" + queue);
        // a caller that waits for each schedule, as RDelayedQueue.offer's does, is what synchronous=true is for
        this.waitingProducer = camel.getEndpoint("redis-delay:" + queue + "?synchronous=true");
        this.batchProducer = camel.getEndpoint("redis-delay:" + queue + "?operation=scheduleBatch");
        this.template = camel.createProducerTemplate();
    }

    @Override
    public void schedule(String body, Due due) {
        template.sendBodyAndHeader(waitingProducer, body, header(due), due.millis());
    }

    @Override
    public CompletionStage<?> scheduleAsync(String body, Due due) {
        return template.asyncSend(producer, exchange -> {
            exchange.getMessage().setBody(body);
            exchange.getMessage().setHeader(header(due), due.millis());
        }).thenApply(exchange -> {
            if (exchange.getException() != null) {
                throw new CompletionException(exchange.getException());
            }
            return exchange;
        });
    }

    @Override
    public void scheduleAll(List<String> bodies, Due due) {
        template.sendBodyAndHeader(batchProducer, bodies, header(due), due.millis());
    }

    private static String header(Due due) {
        return due.absolute() ? RedisDelayConstants.DUE_AT : RedisDelayConstants.DELAY;
    }

    @Override
    public Load preload(int count, IntFunction<String> body, IntFunction<Due> due, Duration bound) {
        Senders.Outcome outcome = Senders.run("preload-" + queue, count, PRELOAD_THREADS, 0, bound,
                i -> schedule(body.apply(i), due.apply(i)));
        return new Load(outcome.sent(), outcome.perSecond());
    }

    @Override
    public void startConsumers(int threads, MessageSink sink) {
        routeId = "bench-" + queue;
        String uri = "redis-delay:" + queue + "?concurrentConsumers=" + threads;
        try {
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from(uri).routeId(routeId).process(exchange -> {
                        Message message = exchange.getMessage();
                        sink.received(message.getBody(String.class),
                                message.getHeader(RedisDelayConstants.SCHEDULED_FOR, Long.class));
                    });
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException("Cannot start the consumer route of " + queue, e);
        }
        consumer = camel.getRoute(routeId).getEndpoint();
    }

    @Override
    public void stopConsumers() {
        if (routeId == null) {
            return;
        }
        try {
            camel.getRouteController().stopRoute(routeId, 10, TimeUnit.SECONDS);
            camel.removeRoute(routeId);
            camel.removeEndpoint(consumer);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot stop the consumer route of " + queue, e);
        }
        routeId = null;
    }

    @Override
    public long readyCount() {
        return redis.length("stream", readyKey);
    }

    @Override
    public void close() {
        stopConsumers();
        try {
            template.stop();
            // every endpoint of the queue: the last one removed stops its transfer task, which would otherwise go on
            // calling Redis through the scenarios that follow
            camel.removeEndpoint(producer);
            camel.removeEndpoint(waitingProducer);
            camel.removeEndpoint(batchProducer);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot stop the producer of " + queue, e);
        }
    }
}
