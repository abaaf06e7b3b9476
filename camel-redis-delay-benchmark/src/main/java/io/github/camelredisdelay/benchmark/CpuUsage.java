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

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.time.Duration;

/**
 * CPU time used by this JVM (both sides' clients run in it, one after the other) and by redis-server, so a difference
 * in throughput can be told apart as client work or server work.
 *
 * @param jvmNanos   this process' CPU time, or -1 when the JVM does not tell
 * @param redisNanos redis-server's CPU time (INFO cpu, user + system)
 */
record CpuUsage(long jvmNanos, long redisNanos) {

    static CpuUsage now(BenchRedis redis, Duration patience) {
        return new CpuUsage(jvmCpuNanos(), (long) (redisCpuSeconds(redis.info("cpu", patience)) * 1e9));
    }

    /** A redis-server's CPU time (user + system) from its {@code INFO cpu} reply, in seconds. */
    static double redisCpuSeconds(String info) {
        return field(info, "used_cpu_user") + field(info, "used_cpu_sys");
    }

    CpuUsage minus(CpuUsage earlier) {
        return new CpuUsage(jvmNanos < 0 ? -1 : jvmNanos - earlier.jvmNanos, redisNanos - earlier.redisNanos);
    }

    double jvmMicrosPer(long messages) {
        return jvmNanos < 0 ? Double.NaN : jvmNanos / 1e3 / Math.max(1, messages);
    }

    double redisMicrosPer(long messages) {
        return redisNanos / 1e3 / Math.max(1, messages);
    }

    static long jvmCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean hotspot ? hotspot.getProcessCpuTime() : -1;
    }

    private static double field(String info, String name) {
        return BenchRedis.infoField(info, name).map(Double::parseDouble).orElse(0.0);
    }
}
