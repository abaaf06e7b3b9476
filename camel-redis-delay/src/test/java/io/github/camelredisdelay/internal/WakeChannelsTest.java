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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.camelredisdelay.test.LogLines;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.junit.jupiter.api.Test;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The listeners of one wake channel (a queue's transfer task, its consumers' signals, in this JVM and possibly of
 * several contexts) each hear every notice: one that throws keeps none from the others, and is logged.
 */
class WakeChannelsTest extends RedisDelayTestSupport {

    @Test
    void aListenerThatThrowsKeepsNoNoticeFromTheListenersAfterIt() throws Exception {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        WakeChannels channels = new WakeChannels(ConnectedClient.borrowed(redis()), keyPrefix, timer);
        String channel = keyPrefix + ":orders";
        AtomicInteger subscriptions = new AtomicInteger();
        AtomicInteger earliest = new AtomicInteger();
        AtomicInteger ready = new AtomicInteger();
        AtomicInteger handedBack = new AtomicInteger();
        channels.listen(channel, new WakeListener() {
            @Override
            public void earliestDueIn(long delayMs) {
                throw new IllegalStateException("earliestDueIn failed");
            }

            @Override
            public void messagesReady() {
                throw new IllegalStateException("messagesReady failed");
            }

            @Override
            public void messagesHandedBack() {
                throw new IllegalStateException("messagesHandedBack failed");
            }

            @Override
            public void subscribed() {
                throw new IllegalStateException("subscribed failed");
            }
        });
        channels.listen(channel, new WakeListener() {
            @Override
            public void earliestDueIn(long delayMs) {
                earliest.incrementAndGet();
            }

            @Override
            public void messagesReady() {
                ready.incrementAndGet();
            }

            @Override
            public void messagesHandedBack() {
                handedBack.incrementAndGet();
            }

            @Override
            public void subscribed() {
                subscriptions.incrementAndGet();
            }
        });
        try (LogLines log = LogLines.of(WakeChannels.class)) {
            channels.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> subscriptions.get() == 1);

            for (String notice : new String[] { "250", Wire.WAKE_READY, Wire.WAKE_HANDED_BACK }) {
                redis().getTopic(channel, StringCodec.INSTANCE).publish(notice);
            }

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(earliest).as("earliest due time notices heard").hasValue(1);
                assertThat(handedBack).as("hand-back notices heard").hasValue(1);
                assertThat(ready).as("ready notices heard (a hand-back is one too)").hasValue(2);
            });
            assertThat(log.lines()).anySatisfy(line -> assertThat(line).contains("WARN").contains(channel)
                    .contains("earliestDueIn failed"));
        } finally {
            channels.stop();
            timer.shutdownNow();
        }
    }
}
