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
package io.github.camelredisdelay.example;

import java.util.Optional;
import java.util.function.UnaryOperator;

import io.github.camelredisdelay.RedisDelayComponent;
import io.github.camelredisdelay.embedded.RedisBinary;
import io.github.camelredisdelay.embedded.RedisServerOptions;
import io.github.camelredisdelay.embedded.RedisServerProcess;
import org.apache.camel.CamelContext;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides which Redis the example talks to, in this order:
 * <ol>
 * <li>the property {@value #ADDRESS_PROPERTY} from any camel-main source (application.properties, {@code -D}, or the
 * environment variable {@code CAMEL_COMPONENT_REDIS_DELAY_ADDRESS}): left to camel-main;</li>
 * <li>the environment variable {@value #REDIS_URL_ENV}, e.g. {@code redis://localhost:6379};</li>
 * <li>otherwise a private {@code redis-server} (the one on {@code PATH}, else the one in the embedded-redis jar) on a
 * free loopback port, with its data in a temporary directory.</li>
 * </ol>
 * The private server starts before the routes and stops after the CamelContext, so the component never sees it go away;
 * its own JVM shutdown hook kills it if the JVM ends some other way (Ctrl-C).
 */
final class ExampleRedis extends MainListenerSupport {

    static final String ADDRESS_PROPERTY = "camel.component.redis-delay.address";
    static final String REDIS_URL_ENV = "REDIS_URL";

    private static final long QUICK_STOP_MILLIS = 500;
    private static final Logger LOG = LoggerFactory.getLogger(ExampleRedis.class);

    private final UnaryOperator<String> environment;
    private volatile RedisServerProcess server;

    ExampleRedis(UnaryOperator<String> environment) {
        this.environment = environment;
    }

    /** Runs once the properties are loaded and before any endpoint exists, so every endpoint gets the address. */
    @Override
    public void beforeConfigure(BaseMainSupport main) {
        CamelContext context = main.getCamelContext();
        Optional<String> configured = context.getPropertiesComponent().resolveProperty(ADDRESS_PROPERTY);
        String url = environment.apply(REDIS_URL_ENV);
        String address;
        if (configured.isPresent()) {
            // Set here as well: camel-main does not apply CAMEL_COMPONENT_REDIS_DELAY_ADDRESS to the component (it
            // reads every _ of the variable as a dot, and the component's name has a dash).
            address = configured.get();
            LOG.info("Using Redis at {} ({})", address, ADDRESS_PROPERTY);
        } else if (url != null && !url.isBlank()) {
            address = url.strip();
            LOG.info("Using Redis at {} (environment variable {})", address, REDIS_URL_ENV);
        } else {
            server = RedisServerProcess.start(RedisBinary.select(RedisBinary.PATH_CHOICE), RedisServerOptions.defaults());
            address = server.uri();
            LOG.info("No Redis configured: started a private redis-server {} at {} (pid {})", server.version(), address,
                    server.pid());
        }
        context.getComponent("redis-delay", RedisDelayComponent.class).getConfiguration().setAddress(address);
    }

    /**
     * When the JVM is exiting (Ctrl-C, {@code kill}), the private redis-server is gone or about to go: its own JVM
     * shutdown hook kills it, and Ctrl-C in a terminal reaches it directly (it shares the terminal's process group).
     * Nothing in flight can finish then, so stop at once instead of waiting for the shutdown timeouts.
     */
    @Override
    public void beforeStop(BaseMainSupport main) {
        RedisServerProcess running = server;
        if (running != null && (jvmIsExiting() || !running.isRunning())) {
            LOG.info("The JVM is exiting and takes the private redis-server with it: stopping without waiting for "
                     + "in-flight messages");
            CamelContext context = main.getCamelContext();
            context.getShutdownStrategy().setTimeout(1);
            context.getShutdownStrategy().setLogInflightExchangesOnTimeout(false);
            context.getExecutorServiceManager().setShutdownAwaitTermination(QUICK_STOP_MILLIS);
        }
    }

    /** The JVM refuses new shutdown hooks once it has started to run them. */
    private static boolean jvmIsExiting() {
        Thread probe = new Thread(() -> {
        });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException exiting) {
            return true;
        }
    }

    @Override
    public void afterStop(BaseMainSupport main) {
        RedisServerProcess running = server;
        if (running == null) {
            return;
        }
        server = null;
        if (jvmIsExiting()) {
            // Closing now would race its shutdown hook, which kills it and deletes its directory.
            LOG.info("The private redis-server (pid {}) is stopped by its JVM shutdown hook", running.pid());
        } else {
            running.close();
            LOG.info("Stopped the private redis-server (pid {})", running.pid());
        }
    }

    Optional<RedisServerProcess> embedded() {
        return Optional.ofNullable(server);
    }
}
