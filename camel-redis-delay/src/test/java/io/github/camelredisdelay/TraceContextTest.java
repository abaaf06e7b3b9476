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

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.opentelemetry2.OpenTelemetryTracer;
import org.apache.camel.telemetry.Op;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Camel's OpenTelemetry tracer (camel-opentelemetry2) on both nodes, a delivered message's consumer span belongs
 * to the trace of the exchange that scheduled it: its parent is the producer's span, and the delay is the gap between
 * them.
 */
class TraceContextTest extends RedisDelayTestSupport {

    private static final long DELAY = 800;

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final SdkTracerProvider tracerProvider
            = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
    private final OpenTelemetrySdk openTelemetry = OpenTelemetrySdk.builder().setTracerProvider(tracerProvider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
    private final List<Map<String, Object>> deliveredHeaders = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeSdk() {
        tracerProvider.shutdown().join(5, TimeUnit.SECONDS);
    }

    /** A node traced by Camel's OpenTelemetry tracer into {@link #exporter}. */
    private CamelContext tracedNode(RouteBuilder routes) throws Exception {
        CamelContext context = createContext(routes);
        context.getRegistry().bind("otelTracer", openTelemetry.getTracer("camel-redis-delay-test"));
        context.getRegistry().bind("otelPropagators", openTelemetry.getPropagators());
        OpenTelemetryTracer tracer = new OpenTelemetryTracer();
        tracer.setCamelContext(context);
        tracer.init(context);
        context.start();
        return context;
    }

    private CamelContext scheduler(String queueUri) throws Exception {
        return tracedNode(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").routeId("order").to(queueUri);
            }
        });
    }

    private CamelContext worker(String queueUri) throws Exception {
        return tracedNode(new RouteBuilder() {
            @Override
            public void configure() {
                from(queueUri).routeId("ship").process(e -> deliveredHeaders.add(e.getMessage().getHeaders()));
            }
        });
    }

    private static boolean isRedisDelaySpan(SpanData span, Op op) {
        return "redis-delay".equals(span.getAttributes().get(AttributeKey.stringKey("url.scheme")))
                && op.name().equals(span.getAttributes().get(AttributeKey.stringKey("op")));
    }

    private SpanData onlySpan(Op op) {
        List<SpanData> spans = exporter.getFinishedSpanItems().stream().filter(span -> isRedisDelaySpan(span, op)).toList();
        assertThat(spans).as("redis-delay spans of %s", op).hasSize(1);
        return spans.get(0);
    }

    @Test
    void consumerSpanIsAChildOfTheSchedulingSpanAfterTheDelay() throws Exception {
        worker("redis-delay:orders");
        scheduler("redis-delay:orders?delay=" + DELAY).createProducerTemplate().sendBody("direct:order", "order-1");

        await().atMost(Duration.ofSeconds(10))
                .until(() -> exporter.getFinishedSpanItems().stream().anyMatch(s -> isRedisDelaySpan(s, Op.EVENT_RECEIVED)));
        SpanData scheduled = onlySpan(Op.EVENT_SENT);
        SpanData delivered = onlySpan(Op.EVENT_RECEIVED);
        exporter.getFinishedSpanItems().forEach(span -> System.out.printf("[span] %s %s parent %s %s %s%n",
                span.getTraceId(), span.getSpanId(), span.getParentSpanId(), span.getName(), span.getAttributes()));

        assertThat(delivered.getTraceId()).as("trace id on both sides of the delay").isEqualTo(scheduled.getTraceId());
        assertThat(delivered.getParentSpanId()).isEqualTo(scheduled.getSpanId());
        assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getTraceId).containsOnly(scheduled.getTraceId());
        long gapMillis = TimeUnit.NANOSECONDS.toMillis(delivered.getStartEpochNanos() - scheduled.getEndEpochNanos());
        System.out.printf("[trace] delay %d ms, gap between the spans %d ms%n", DELAY, gapMillis);
        // Redis set the due time while the producer's span was open, so the gap can fall short of the delay by as much
        // as the schedule took
        assertThat(gapMillis).isBetween(DELAY - 200, DELAY + 2000);
    }
}
