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

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The machine and software a run measured, for the JSON file and the header of the output. */
final class Machine {

    private Machine() {
    }

    static Map<String, Object> describe(BenchRedis redis) {
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("nproc", Runtime.getRuntime().availableProcessors());
        machine.put("memTotal", memTotal());
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                          + System.getProperty("os.arch"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        machine.put("jvmArguments", String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        machine.put("maxHeap", Runtime.getRuntime().maxMemory());
        machine.put("gc", ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName).collect(Collectors.joining(", ")));
        machine.put("redis", redis.version());
        machine.put("camel", System.getProperty("bench.camel.version", "unknown"));
        machine.put("redisson", System.getProperty("bench.redisson.version", "unknown"));
        machine.put("loadAverage", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return machine;
    }

    private static String memTotal() {
        try {
            return Files.readAllLines(Path.of("/proc/meminfo")).stream()
                    .filter(line -> line.startsWith("MemTotal:"))
                    .map(line -> line.substring("MemTotal:".length()).strip())
                    .findFirst().orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
