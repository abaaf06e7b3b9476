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

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.RedisDelayComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.Config;

/**
 * The consumer JVM of the fault tests, started by {@link ConsumerJvm}: one CamelContext consuming a queue with a
 * {@link RecordingProcessor} that notes every delivery in a Redis list (or a file). It tells it is ready by adding its
 * process id to the set {@code <log>:ready}, then runs until it is killed, stopped (SIGTERM: the context stops
 * gracefully) or its parent goes away (its standard input closes), so an aborted test run leaves no consumer behind.
 * <p>
 * Arguments, each {@code --name=value}: {@code redisUrl}, {@code keyPrefix}, {@code queue}, {@code log} (the list),
 * {@code endpointOptions} (query string of the consumer endpoint), {@code workMillis}, {@code shutdownTimeout} (of the
 * CamelContext's shutdown strategy, in seconds), and optionally {@code noteBodies} ({@code true}: deliveries are noted
 * under their bodies, see {@link RecordingProcessor}), {@code plan} (class name of a {@link DeliveryPlan} the
 * deliveries follow instead of working {@code workMillis}) and {@code logFile} (the deliveries are noted in this file
 * instead of the list {@code log}, see {@link DeliveryLog#inFile}).
 */
public final class ConsumerJvmMain {

    private ConsumerJvmMain() {
    }

    public static void main(String[] args) {
        try {
            run(parse(args));
        } catch (Throwable e) {
            // Redisson's and Camel's threads would keep a JVM that failed to start alive: exit, so the test sees it
            System.out.println("[consumer-jvm] failed: " + e);
            e.printStackTrace(System.out);
            System.exit(2);
        }
    }

    private static void run(Map<String, String> options) throws Exception {
        exitWhenParentGoes();
        String pid = String.valueOf(ProcessHandle.current().pid());
        String consumer = "jvm-" + pid;

        Config config = new Config();
        config.setCodec(StringCodec.INSTANCE);
        config.useSingleServer().setAddress(options.get("redisUrl")).setConnectionMinimumIdleSize(1);
        RedissonClient bookkeeping = Redisson.create(config);
        String logFile = options.getOrDefault("logFile", "");
        DeliveryLog log = logFile.isEmpty()
                ? DeliveryLog.inRedis(bookkeeping, options.get("log"))
                : DeliveryLog.inFile(Path.of(logFile));

        CamelContext context = new DefaultCamelContext();
        context.getShutdownStrategy().setTimeout(Long.parseLong(options.get("shutdownTimeout")));
        RedisDelayComponent component = context.getComponent("redis-delay", RedisDelayComponent.class);
        component.getConfiguration().setAddress(options.get("redisUrl"));
        component.getConfiguration().setKeyPrefix(options.get("keyPrefix"));
        String uri = "redis-delay:" + options.get("queue") + "?" + options.get("endpointOptions");
        String planClass = options.getOrDefault("plan", "");
        DeliveryPlan plan = planClass.isEmpty()
                ? DeliveryPlan.working(Long.parseLong(options.get("workMillis")))
                : DeliveryPlan.named(planClass);
        RecordingProcessor processor = new RecordingProcessor(
                log, consumer, plan, Boolean.parseBoolean(options.get("noteBodies")));
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId("consumer").process(processor);
            }
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.stop();
            bookkeeping.shutdown(0, 2, TimeUnit.SECONDS);
        }, "consumer-jvm-shutdown"));

        context.start();
        bookkeeping.getSet(options.get("log") + ":ready", StringCodec.INSTANCE).add(pid);
        System.out.println("[consumer-jvm] " + consumer + " consumes " + uri);
        new CountDownLatch(1).await();
    }

    private static Map<String, String> parse(String[] args) {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("Arguments are --name=value, not " + arg);
            }
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        for (String required : new String[] {
                "redisUrl", "keyPrefix", "queue", "log", "endpointOptions", "workMillis",
                "shutdownTimeout" }) {
            if (!options.containsKey(required)) {
                throw new IllegalArgumentException("Missing argument --" + required + "=...");
            }
        }
        return options;
    }

    /** The parent keeps our standard input open; end of input means it is gone. */
    private static void exitWhenParentGoes() {
        Thread watcher = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // the parent never writes; only the end of input matters
                }
            } catch (IOException e) {
                // a broken pipe means the same as the end of input
            }
            System.out.println("[consumer-jvm] standard input closed (parent gone or stopping us), exiting");
            System.exit(3);
        }, "parent-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }
}
