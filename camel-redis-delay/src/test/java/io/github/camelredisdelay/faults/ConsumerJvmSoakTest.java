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
package io.github.camelredisdelay.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.camelredisdelay.faults.DeliveryLog.Entry;
import io.github.camelredisdelay.faults.DeliveryLog.Event;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A steady stream of messages while two consumer JVMs share the queue and one of them is killed with SIGKILL at regular
 * intervals and replaced: no acknowledged message is lost; duplicates are counted and reported.
 * <p>
 * The long run is tagged {@code slow} (run it with {@code -Pfaults}); its length, rate and kill interval come from the
 * system properties {@value #DURATION_PROPERTY} (default {@code 10m}), {@value #RATE_PROPERTY} (messages per second,
 * default 500) and {@value #KILL_EVERY_PROPERTY} (default {@code 1m}); durations as {@code 90s}, {@code 2m} or ISO-8601
 * ({@code PT2M}).
 */
class ConsumerJvmSoakTest extends FaultTestSupport {

    static final String DURATION_PROPERTY = "faults.soak.duration";
    static final String RATE_PROPERTY = "faults.soak.rate";
    static final String KILL_EVERY_PROPERTY = "faults.soak.killEvery";

    private static final String QUEUE = "soak";
    private static final String CONSUMER_OPTIONS = "visibilityTimeout=2s&concurrentConsumers=4";
    private static final long WORK_MILLIS = 10;
    private static final long MAX_DELAY_MILLIS = 2_000;

    @Test
    void noMessageIsLostWhileConsumerJvmsAreKilledEveryFewSeconds() throws Exception {
        soak("consumer JVM kill -9 every 5 s, 15 s at 100/s", Duration.ofSeconds(15), 100, Duration.ofSeconds(5));
    }

    @Test
    @Tag("slow")
    void noMessageIsLostWhileAConsumerJvmIsKilledEveryMinuteForTenMinutes() throws Exception {
        Duration duration = durationProperty(DURATION_PROPERTY, Duration.ofMinutes(10));
        int rate = Integer.getInteger(RATE_PROPERTY, 500);
        Duration killEvery = durationProperty(KILL_EVERY_PROPERTY, Duration.ofMinutes(1));
        soak("soak " + duration.toSeconds() + " s at " + rate + "/s, kill -9 every " + killEvery.toSeconds() + " s",
                duration, rate, killEvery);
    }

    private void soak(String scenario, Duration duration, int rate, Duration killEvery) throws Exception {
        long started = System.nanoTime();
        List<ConsumerJvm> running = new ArrayList<>(
                List.of(launchConsumerJvm(QUEUE, CONSUMER_OPTIONS, WORK_MILLIS),
                        launchConsumerJvm(QUEUE, CONSUMER_OPTIONS, WORK_MILLIS)));
        for (ConsumerJvm jvm : running) {
            jvm.awaitReady(redis(), JVM_START_TIMEOUT);
        }
        List<ConsumerJvm> killed = new ArrayList<>();
        DeliveryLog deliveryLog = redisDeliveryLog();
        int maxMessages = (int) Math.min(Integer.MAX_VALUE, rate * duration.toSeconds());

        Map<String, Long> acknowledged;
        String failures;
        try (PacedProducer producer = new PacedProducer(
                startContext().createProducerTemplate(), "redis-delay:" + QUEUE, "m",
                rate, maxMessages, MAX_DELAY_MILLIS).start()) {
            long start = System.nanoTime();
            long end = start + duration.toNanos();
            // kills at killEvery, 2 x killEvery, ... while messages are still being sent
            for (long killAt = start + killEvery.toNanos(); end - killAt > 0; killAt += killEvery.toNanos()) {
                long due = killAt;
                ConsumerJvm survivor = running.get(1);
                await("next kill").atMost(killEvery.plus(JVM_START_TIMEOUT)).pollInterval(Duration.ofMillis(200))
                        .failFast("surviving " + survivor + " died", () -> !survivor.isAlive())
                        .until(() -> System.nanoTime() - due >= 0);
                ConsumerJvm victim = running.remove(0);
                victim.kill();
                killed.add(victim);
                running.add(launchConsumerJvm(QUEUE, CONSUMER_OPTIONS, WORK_MILLIS).awaitReady(redis(), JVM_START_TIMEOUT));
            }
            await("end of the run").atMost(killEvery.plusSeconds(5)).pollInterval(Duration.ofMillis(200))
                    .until(() -> System.nanoTime() - end >= 0);
            producer.stop();
            acknowledged = producer.acknowledged();
            failures = producer.failureSummary();
        }

        deliveryLog.awaitFinished(acknowledged.keySet(), Duration.ofMinutes(2));
        stopConsumerJvms();
        Deliveries deliveries = deliveryLog.read();
        int interruptedCount = killed.stream()
                .mapToInt(victim -> deliveries.interruptedAt(victim.consumerName()).size()).sum();
        long achievedRate = acknowledged.size() / Math.max(1, duration.toSeconds());
        Tally tally = deliveries.tally(acknowledged.keySet()).report(scenario, Duration.ofNanos(System.nanoTime() - started),
                "kills=" + killed.size() + " interruptedDeliveries=" + interruptedCount + " achievedRate=" + achievedRate
                                                                                                                              + "/s "
                                                                                                                              + failures
                                                                                                                              + " perConsumer="
                                                                                                                              + deliveries
                                                                                                                                      .finishedByConsumer());
        assertThat(tally.lost()).as("acknowledged sends never delivered").isEmpty();
        for (ConsumerJvm victim : killed) {
            for (Entry interrupted : deliveries.interruptedAt(victim.consumerName()).values()) {
                assertThat(deliveries.of(interrupted.messageId()))
                        .as("deliveries of %s, interrupted by the kill of %s", interrupted.messageId(), victim)
                        .anySatisfy(entry -> {
                            assertThat(entry.event()).isEqualTo(Event.FINISHED);
                            assertThat(entry.deliveryCount()).isGreaterThan(interrupted.deliveryCount());
                        });
            }
        }
    }

    private static Duration durationProperty(String name, Duration defaultValue) {
        String text = System.getProperty(name);
        if (text == null || text.isBlank()) {
            return defaultValue;
        }
        Matcher simple = Pattern.compile("(\\d+)([sm])").matcher(text.strip());
        if (simple.matches()) {
            long amount = Long.parseLong(simple.group(1));
            return simple.group(2).equals("s") ? Duration.ofSeconds(amount) : Duration.ofMinutes(amount);
        }
        return Duration.parse(text.strip());
    }
}
