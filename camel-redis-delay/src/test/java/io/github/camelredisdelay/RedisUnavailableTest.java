package io.github.camelredisdelay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ServiceStatus;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

class RedisUnavailableTest extends RedisDelayTestSupport {

    @Override
    protected boolean usesSharedClient() {
        // the endpoint's address must count: the component creates the client
        return false;
    }

    @Test
    void contextStartsAndStopsWhileRedisIsUnreachableAndProducersFailFast() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String uri = "redis-delay:orders?address=redis://127.0.0.1:" + closedPort;
        CamelContext node = createContext(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).process(e -> e.getMessage().setBody("done"));
            }
        });

        CompletableFuture.runAsync(node::start).get(30, TimeUnit.SECONDS);
        assertThat(node.getRouteController().getRouteStatus(node.getRoutes().get(0).getRouteId())).isEqualTo(ServiceStatus.Started);

        Exchange sent = node.createProducerTemplate().send(uri, e -> e.getMessage().setBody("x"));
        assertThat(sent.getException()).as("the Redis error reaches the route").isNotNull();

        CompletableFuture.runAsync(node::stop).get(30, TimeUnit.SECONDS);
        assertThat(node.isStopped()).isTrue();
    }
}
