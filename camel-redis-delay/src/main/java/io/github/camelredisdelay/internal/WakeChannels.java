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

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.redisson.api.RPatternTopic;
import org.redisson.api.listener.PatternMessageListener;
import org.redisson.api.listener.PatternStatusListener;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wake channels of every queue under one key prefix, heard through ONE pattern subscription
 * ({@code PSUBSCRIBE <prefix>:*}) of one Redis client, and handed to the transfer tasks and waiting consumers of each
 * queue in this JVM. A subscription per queue would not scale: Redisson multiplexes only a few channels per connection
 * and keeps a bounded pool of them. A payload {@code ready} means messages went to the ready stream; a number is the
 * delay to a new earliest due time; {@code handed-back} that a consumer handed messages back, whose leases ended.
 * <p>
 * The subscription is made on the timer thread, so starting never waits for Redis, and made again with back-off until
 * it succeeds; every (re)subscription tells all listeners, since announcements may have been missed. Redisson fails a
 * subscription it got no connection for in time alike whether its subscription connections are all taken or Redis is
 * out of reach; a command then tells which, and the failure is logged as what it is.
 */
public final class WakeChannels implements SharedService {

    private static final Logger LOG = LoggerFactory.getLogger(WakeChannels.class);

    private final ConnectedClient client;
    private final String pattern;
    private final ScheduledExecutorService timer;
    private final OutageLog outage;
    private final Backoff backoff = new Backoff(50, 1000);
    private final Map<String, List<WakeListener>> listeners = new ConcurrentHashMap<>();
    private volatile boolean running;
    private volatile int messageListenerId = -1;
    private volatile int statusListenerId = -1;

    public WakeChannels(ConnectedClient client, String keyPrefix, ScheduledExecutorService timer) {
        this.client = client;
        this.pattern = globEscaped(keyPrefix) + ":*";
        this.timer = timer;
        this.outage = new OutageLog(LOG, "Subscription to " + pattern);
    }

    /** Starts telling {@code listener} what {@code channel} (a queue's wake channel) announces. */
    public void listen(String channel, WakeListener listener) {
        listeners.computeIfAbsent(channel, name -> new CopyOnWriteArrayList<>()).add(listener);
    }

    public void stopListening(String channel, WakeListener listener) {
        listeners.computeIfPresent(channel, (name, list) -> {
            list.remove(listener);
            return list.isEmpty() ? null : list;
        });
    }

    @Override
    public void start() {
        running = true;
        timer.execute(this::subscribe);
    }

    @Override
    public void stop() {
        running = false;
        if (messageListenerId >= 0 || statusListenerId >= 0) {
            try {
                topic().removeListenerAsync(messageListenerId, statusListenerId);
            } catch (RuntimeException e) {
                LOG.debug("Could not unsubscribe from {}: {}", pattern, e.toString());
            }
        }
        messageListenerId = -1;
        statusListenerId = -1;
    }

    private RPatternTopic topic() {
        return client.get().getPatternTopic(pattern, StringCodec.INSTANCE);
    }

    private void subscribe() {
        PatternMessageListener<String> onMessage = (subscribed, channel, payload) -> dispatch(channel.toString(), payload);
        PatternStatusListener onStatus = new PatternStatusListener() {
            @Override
            public void onPSubscribe(String subscribed) {
                listeners.forEach((channel, list) -> tell(channel, list, "subscribed", WakeListener::subscribed));
            }

            @Override
            public void onPUnsubscribe(String subscribed) {
                // the listeners' safety-net timers keep them going until the next subscription
            }
        };
        try {
            RPatternTopic topic = topic();
            topic.addListenerAsync(onStatus).thenCompose(statusId -> {
                statusListenerId = statusId;
                return topic.addListenerAsync(String.class, onMessage);
            }).whenComplete((id, error) -> {
                if (error != null) {
                    subscribeFailed(error);
                } else {
                    messageListenerId = id;
                    outage.succeeded();
                    backoff.reset();
                    if (!running) {
                        stop();
                    }
                }
            });
        } catch (RuntimeException e) {
            // Redisson throws instead of failing the future when it cannot connect
            subscribeFailed(e);
        }
    }

    private void subscribeFailed(Throwable error) {
        if (!running) {
            return;
        }
        if (ClientShortage.advice(error) == null) {
            retryAfter(error);
            return;
        }
        // the pattern read as a key: in a cluster, the master of the pattern's slot is the one subscribed to
        CompletionStage<Long> asked;
        try {
            asked = client.get().getKeys().countExistsAsync(pattern);
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        asked.whenComplete((answered, unreachable) -> retryAfter(unreachable == null ? error : unreachable));
    }

    private void retryAfter(Throwable error) {
        if (running) {
            outage.failed(error);
            timer.schedule(() -> {
                if (running && messageListenerId < 0) {
                    subscribe();
                }
            }, backoff.next(), TimeUnit.MILLISECONDS);
        }
    }

    private void dispatch(String channel, String payload) {
        List<WakeListener> targets = listeners.get(channel);
        if (targets == null) {
            return;
        }
        if (Wire.WAKE_READY.equals(payload)) {
            tell(channel, targets, payload, WakeListener::messagesReady);
            return;
        }
        if (Wire.WAKE_HANDED_BACK.equals(payload)) {
            tell(channel, targets, payload, WakeListener::messagesHandedBack);
            tell(channel, targets, payload, WakeListener::messagesReady);
            return;
        }
        long delayMs = delayOf(payload);
        tell(channel, targets, payload, listener -> listener.earliestDueIn(delayMs));
    }

    /** The delay (ms) a notice of a new earliest due time announces; 0 for one that is no number. */
    private static long delayOf(String payload) {
        try {
            return Math.max(0, Long.parseLong(payload));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Tells each listener of {@code channel} what it announced: one that fails keeps the notice from none after it. */
    private static void tell(String channel, List<WakeListener> targets, String notice, Consumer<WakeListener> told) {
        for (WakeListener listener : targets) {
            try {
                told.accept(listener);
            } catch (RuntimeException e) {
                LOG.warn("A listener of wake channel {} failed on notice '{}': {}", channel, notice, e.toString(), e);
            }
        }
    }

    /** The prefix as a literal in a Redis glob pattern. */
    static String globEscaped(String prefix) {
        return prefix.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }
}
