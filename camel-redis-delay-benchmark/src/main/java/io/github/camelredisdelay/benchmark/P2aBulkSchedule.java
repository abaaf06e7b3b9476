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

/**
 * P2a: bulk scheduling with many schedules in flight, as a loader that does not wait for each one: ours
 * {@code ProducerTemplate.asyncSend}, theirs {@code RDelayedQueue.offerAsync}, both from {@value #THREADS} threads with
 * at most {@value #IN_FLIGHT} unfinished; each side's median of {@link Bench#ROUNDS}.
 */
final class P2aBulkSchedule implements Scenario {

    private static final String ID = "P2a";
    private static final int MESSAGES = 100_000;
    private static final int THREADS = 16;
    private static final int IN_FLIGHT = 512;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "bulk schedule (ProducerTemplate.asyncSend vs offerAsync), " + THREADS + " threads, " + IN_FLIGHT
               + " in flight, delay 1 h";
    }

    @Override
    public void run(Bench bench) {
        int messages = bench.scaled(MESSAGES, 2000);
        P2ScheduleThroughput.addRows(bench.report(), ID, String.format("bulk schedule, %d threads, %d in flight (msg/s)",
                THREADS, IN_FLIGHT), bench.inRounds(ID, ScheduleRateProbe.Outcome::perSecond, (side, queue) -> {
                    ScheduleRateProbe.Outcome outcome = ScheduleRateProbe.measureInFlight(bench, queue, messages,
                            THREADS, IN_FLIGHT);
                    Bench.log("%s, %d in flight: %.0f msg/s", side.label(), IN_FLIGHT, outcome.perSecond());
                    return outcome;
                }), Target.ratioAtLeast(1.5));
    }
}
