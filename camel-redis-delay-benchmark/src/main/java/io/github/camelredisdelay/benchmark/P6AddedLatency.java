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

import io.github.camelredisdelay.embedded.LatencyProxy;

/**
 * P6: P2 with {@value #THREADS} threads and P3 with {@value #CONSUMERS} consumers with both sides' clients reaching
 * Redis through a {@link LatencyProxy} that adds {@value #ADDED_RTT_MICROS} µs of round-trip time, the latency of a
 * Redis on another host in the same zone. The JVM CPU of these rows includes the proxy's, the same for both sides.
 */
final class P6AddedLatency implements Scenario {

    private static final String ID = "P6";
    private static final int ADDED_RTT_MICROS = 500;
    /** Half of the added round trip each way. */
    private static final Duration ONE_WAY = Duration.ofNanos(ADDED_RTT_MICROS * 1000L / 2);
    private static final int THREADS = 16;
    private static final int CONSUMERS = 4;
    private static final int PINGS = 2000;
    private static final Duration PING_BOUND = Duration.ofSeconds(20);
    private static final int CALIBRATION_ROUNDS = 4;
    /** How far the measured added round trip may be off. */
    private static final double TOLERANCE = 0.05;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String title() {
        return "P2 (" + THREADS + " threads) and P3 (" + CONSUMERS + " consumers) through a proxy adding "
               + ADDED_RTT_MICROS + " µs of round-trip time";
    }

    @Override
    public void run(Bench bench) {
        try (LatencyProxy proxy = LatencyProxy.start(bench.redis().port(), ONE_WAY);
             BenchClients clients = BenchClients.connect(proxy.uri())) {
            String rtt = calibrate(proxy, bench.redis().port());
            Bench proxied = bench.with(clients);
            int schedules = bench.scaled(P2ScheduleThroughput.MESSAGES, 500);
            P2ScheduleThroughput.addRows(bench.report(), ID, P2ScheduleThroughput.scenario(THREADS)
                    .replace(" (", ", " + rtt + " ("), P2ScheduleThroughput.rounds(proxied, ID, schedules, THREADS),
                    Target.ratioAtLeast(2));
            int backlog = bench.scaled(P3Drain.MESSAGES, 1000);
            P3Drain.addRows(bench.report(), ID, P3Drain.scenario(backlog, CONSUMERS).replace(" (", ", " + rtt + " ("),
                    P3Drain.rounds(proxied, ID, backlog, CONSUMERS), Target.ratioAtLeast(2));
        }
    }

    /**
     * Sets the proxy's delay so that it adds {@value #ADDED_RTT_MICROS} µs to the median round trip of PING: waking a
     * thread at a given time overshoots by tens of µs (the kernel's timer slack) and the extra hops cost some too, so
     * the delay per direction is corrected by what the last measurement was off, a few times.
     *
     * @return the added round-trip time as measured, the text the rows carry
     */
    private static String calibrate(LatencyProxy proxy, int redisPort) {
        double direct = RttProbe.medianMillis(redisPort, PINGS, PING_BOUND);
        double target = ADDED_RTT_MICROS / 1000.0;
        double added = Double.NaN;
        for (int round = 0; round < CALIBRATION_ROUNDS; round++) {
            added = RttProbe.medianMillis(proxy.port(), PINGS, PING_BOUND) - direct;
            Bench.log("PING round trip, median of %d: %.3f ms direct, +%.3f ms through the proxy (%d µs each way)",
                    PINGS, direct, added, proxy.oneWay().toNanos() / 1000);
            double error = added - target;
            if (Math.abs(error) <= target * TOLERANCE || round == CALIBRATION_ROUNDS - 1) {
                break;
            }
            long corrected = proxy.oneWay().toNanos() - (long) (error * 1e6 / 2);
            proxy.oneWay(Duration.ofNanos(Math.max(0, corrected)));
        }
        return String.format("RTT +%.2f ms", added);
    }
}
