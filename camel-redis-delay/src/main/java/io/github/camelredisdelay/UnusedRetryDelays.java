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

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.camelredisdelay.internal.RetryPolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names, once per endpoint, the delays of a {@code retrySchedule} the user wrote that {@code maxDeliveries} never
 * reaches ({@link RetryPolicy#delaysUsed}): {@code maxDeliveries} counts the first delivery, so
 * {@code retrySchedule=15s,3m,10m,30m} with {@code maxDeliveries=4} retries three times and dead-letters the message
 * without ever waiting 30m. The default schedule is not the user's, and {@code maxDeliveries=1} (no retry at all,
 * beside a schedule set on the component, say) says what it means: a lower {@code maxDeliveries} there is a choice, not
 * a slip.
 */
final class UnusedRetryDelays {

    private static final Logger LOG = LoggerFactory.getLogger(UnusedRetryDelays.class);

    private final AtomicBoolean warned = new AtomicBoolean();

    /**
     * Logs the WARN for the consumer of {@code queue}, the first time. Read from the options as they are now: the
     * application may have set them on the endpoint object since Camel created it (they are checked at its start).
     */
    void warnOnce(String queue, RedisDelayConfiguration configuration) {
        int maxDeliveries = configuration.getMaxDeliveries();
        String schedule = configuration.getRetrySchedule();
        if (maxDeliveries <= 1 || schedule == null
                || RedisDelayConfiguration.DEFAULT_RETRY_SCHEDULE.equals(schedule.strip())) {
            return;
        }
        List<Long> delays;
        try {
            delays = RedisDelayConfiguration.retryDelaysOf(schedule, queue);
        } catch (IllegalArgumentException e) {
            return; // the endpoint's start refuses it, naming the bad entry
        }
        int used = new RetryPolicy(delays, maxDeliveries).delaysUsed();
        if (used == delays.size() || !warned.compareAndSet(false, true)) {
            return;
        }
        // as the user wrote them: the entries parsed above, one per comma
        List<String> entries = Arrays.stream(schedule.split(",")).map(String::strip).toList();
        List<String> unused = entries.subList(used, entries.size());
        int retries = maxDeliveries - 1;
        String noun = unused.size() == 1 ? "delay" : "delays";
        LOG.warn("The consumer of queue {} never waits the retrySchedule {} {} (of {}): maxDeliveries={} counts the first "
                 + "delivery, so a failed message is retried {} time{} and then goes to the dead-letter queue {}. Set "
                 + "maxDeliveries={} to retry after every delay given, or leave the unused {} out",
                queue, noun, String.join(", ", unused), schedule, maxDeliveries, retries, retries == 1 ? "" : "s",
                configuration.deadLetterQueueOf(queue), delays.size() + 1, noun);
    }
}
