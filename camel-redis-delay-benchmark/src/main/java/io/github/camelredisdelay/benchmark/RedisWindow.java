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

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Redis and this JVM did during one measured window: the commands Redis ran (INFO commandstats), the CPU both
 * used, and Redis' stalls. If the server is still stalled when the window closes, the usage is unknown and the
 * measurement it belongs to still counts.
 */
final class RedisWindow {

    private final BenchRedis redis;
    private final CommandStats commandsBefore;
    private final CpuUsage cpuBefore;

    private RedisWindow(BenchRedis redis, CommandStats commandsBefore, CpuUsage cpuBefore) {
        this.redis = redis;
        this.commandsBefore = commandsBefore;
        this.cpuBefore = cpuBefore;
    }

    static RedisWindow open(BenchRedis redis) {
        redis.resetStalls();
        return new RedisWindow(redis, redis.commandStats(BenchRedis.PATIENT), CpuUsage.now(redis, BenchRedis.PATIENT));
    }

    Usage close() {
        try {
            return new Usage(
                    redis.commandStats(BenchRedis.BRIEF).minus(commandsBefore),
                    CpuUsage.now(redis, BenchRedis.BRIEF).minus(cpuBefore), redis.stalls(BenchRedis.BRIEF));
        } catch (RuntimeException e) {
            Bench.log("Redis usage of this run unknown, the server is stalled: %s", e.getMessage());
            return Usage.UNKNOWN;
        }
    }

    /** The usage of a window; all parts {@code null} when unknown. */
    record Usage(CommandStats commands, CpuUsage cpu, BenchRedis.Stalls stalls) {

        static final Usage UNKNOWN = new Usage(null, null, null);

        boolean known() {
            return commands != null;
        }

        /** All commands Redis ran, those inside scripts included, per message. */
        double commandsPer(long messages) {
            return known() ? commands.total() / (double) Math.max(1, messages) : Double.NaN;
        }

        /** Script round trips per message. */
        double scriptsPer(long messages) {
            return known() ? commands.scripts() / (double) Math.max(1, messages) : Double.NaN;
        }

        double jvmCpuMicrosPer(long messages) {
            return known() ? cpu.jvmMicrosPer(messages) : Double.NaN;
        }

        double redisCpuMicrosPer(long messages) {
            return known() ? cpu.redisMicrosPer(messages) : Double.NaN;
        }

        /** JVM and Redis together. */
        double cpuMicrosPer(long messages) {
            return jvmCpuMicrosPer(messages) + redisCpuMicrosPer(messages);
        }

        Map<String, Object> details(long messages) {
            Map<String, Object> details = new LinkedHashMap<>();
            if (!known()) {
                details.put("redisUsage", "unknown: the server was stalled when the run ended");
                return details;
            }
            long count = Math.max(1, messages);
            details.put("redisCommandsPerMessage", Numbers.round(commandsPer(count), 3));
            details.put("scriptCallsPerMessage", Numbers.round(scriptsPer(count), 3));
            details.put("scriptMicrosPerMessage", Numbers.round(commands.scriptMicros() / (double) count, 2));
            details.put("scriptMicrosPerCall", commands.scripts() == 0
                    ? null
                    : Numbers.round(commands.scriptMicros() / (double) commands.scripts(), 2));
            details.put("jvmCpuMicrosPerMessage", Numbers.round(jvmCpuMicrosPer(count), 2));
            details.put("redisCpuMicrosPerMessage", Numbers.round(redisCpuMicrosPer(count), 2));
            details.put("commandsPerMessage", commands.perMessage(count));
            details.put("commandMicrosPerMessage", commands.microsPerMessage(count));
            details.put("slowCommands", stalls.slowCommands());
            details.put("worstCommandMs", stalls.worstMillis());
            details.put("slowest", stalls.slowest());
            return details;
        }
    }
}
