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
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.camelredisdelay.test.CamelSide;
import io.github.camelredisdelay.test.RedisDelayTestSupport;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.StatusCode;
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
import org.apache.camel.support.DefaultHeaderFilterStrategy;
import org.apache.camel.telemetry.Op;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With Camel's OpenTelemetry tracer (camel-opentelemetry2) on both nodes, a delivered message's consumer span belongs
 * to the trace of the exchange that scheduled it: its parent is the producer's span, and the delay is the gap between
 * them. The tracer is camel-opentelemetry2 4.18.0 running on this build's Camel: its 4.22.0 release is not on Maven
 * Central.
 */
@CamelSide
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

    /**
     * A node traced by Camel's OpenTelemetry tracer into {@link #exporter}, with a header filter {@code dropAll} that
     * lets no header through.
     */
    private CamelContext tracedNode(RouteBuilder routes) throws Exception {
        CamelContext context = createContext(routes);
        context.getRegistry().bind("otelTracer", openTelemetry.getTracer("camel-redis-delay-test"));
        context.getRegistry().bind("otelPropagators", openTelemetry.getPropagators());
        DefaultHeaderFilterStrategy dropAll = new DefaultHeaderFilterStrategy();
        dropAll.setOutFilterPattern(".*");
        dropAll.setInFilterPattern(".*");
        context.getRegistry().bind("dropAll", dropAll);
        OpenTelemetryTracer tracer = new OpenTelemetryTracer();
        tracer.setCamelContext(context);
        tracer.init(context);
        context.start();
        return context;
    }

    /** A node whose route {@code direct:order} schedules onto {@code queueUri}. */
    private CamelContext scheduler(String queueUri) throws Exception {
        return tracedNode(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").routeId("order").to(queueUri);
            }
        });
    }

    /**
     * A node consuming {@code queueUri}, keeping each delivery's headers; every delivery fails when asked to. It also
     * consumes the dead-letter queue {@code orders.dead}.
     */
    private CamelContext worker(String queueUri, boolean failing) throws Exception {
        return tracedNode(new RouteBuilder() {
            @Override
            public void configure() {
                from(queueUri).routeId("ship").process(e -> {
                    Map<String, Object> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                    headers.putAll(e.getMessage().getHeaders());
                    deliveredHeaders.add(headers);
                    if (failing) {
                        throw new IllegalStateException("delivery fails");
                    }
                });
                from("redis-delay:orders.dead").routeId("dead-letters").log("dead letter ${body}");
            }
        });
    }

    private static boolean isRedisDelaySpan(SpanData span, Op op) {
        return "redis-delay".equals(span.getAttributes().get(AttributeKey.stringKey("url.scheme")))
                && op.name().equals(span.getAttributes().get(AttributeKey.stringKey("op")));
    }

    private List<SpanData> spans(Op op) {
        return exporter.getFinishedSpanItems().stream().filter(span -> isRedisDelaySpan(span, op)).toList();
    }

    private SpanData onlySpan(Op op) {
        List<SpanData> spans = spans(op);
        assertThat(spans).as("redis-delay spans of %s", op).hasSize(1);
        return spans.get(0);
    }

    /** The one delivery came without {@code header}, as a child of the span that scheduled it. */
    private void assertDeliveredAsAChildOfTheSendWithout(String header) {
        awaitDeliverySpans(1);
        SpanData scheduled = onlySpan(Op.EVENT_SENT);
        SpanData delivered = onlySpan(Op.EVENT_RECEIVED);

        assertThat(deliveredHeaders.get(0)).doesNotContainKey(header);
        assertThat(delivered.getTraceId()).isEqualTo(scheduled.getTraceId());
        assertThat(delivered.getParentSpanId()).isEqualTo(scheduled.getSpanId());
    }

    private void awaitDeliverySpans(int count) {
        await().atMost(Duration.ofSeconds(10)).until(() -> spans(Op.EVENT_RECEIVED).size() >= count);
    }

    @Test
    void consumerSpanIsAChildOfTheSchedulingSpanAfterTheDelay() throws Exception {
        worker("redis-delay:orders", false);
        scheduler("redis-delay:orders?delay=" + DELAY).createProducerTemplate().sendBody("direct:order", "order-1");

        awaitDeliverySpans(1);
        SpanData scheduled = onlySpan(Op.EVENT_SENT);
        SpanData delivered = onlySpan(Op.EVENT_RECEIVED);
        exporter.getFinishedSpanItems().forEach(span -> System.out.printf("[span] %s %s parent %s %s %s%n",
                span.getTraceId(), span.getSpanId(), span.getParentSpanId(), span.getName(), span.getAttributes()));

        assertThat(delivered.getTraceId()).as("trace id on both sides of the delay").isEqualTo(scheduled.getTraceId());
        assertThat(delivered.getParentSpanId()).isEqualTo(scheduled.getSpanId());
        assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getTraceId).containsOnly(scheduled.getTraceId());
        long gapMillis = TimeUnit.NANOSECONDS.toMillis(delivered.getStartEpochNanos() - scheduled.getEndEpochNanos());
        long sinceSendMillis = TimeUnit.NANOSECONDS.toMillis(delivered.getStartEpochNanos() - scheduled.getStartEpochNanos());
        System.out.printf("[trace] delay %d ms: the consumer span starts %d ms after the send span ended (%d ms after it "
                          + "started)%n",
                DELAY, gapMillis, sinceSendMillis);
        // Redis took the due time's clock reading inside the send span: the delivery starts at least the delay after the
        // span started, and after it ended by the delay less what the send took after that reading (a cold first call
        // takes longer), give or take the clocks' resolution
        assertThat(sinceSendMillis).isGreaterThanOrEqualTo(DELAY - 20);
        // generous upper bound: a loaded machine delivers late
        assertThat(gapMillis).isPositive().isLessThan(DELAY + 5000);
    }

    @Test
    void traceContextCrossesAHeaderFilterThatDropsEveryOtherHeader() throws Exception {
        worker("redis-delay:orders?headerFilterStrategy=#dropAll", false);
        scheduler("redis-delay:orders?headerFilterStrategy=#dropAll").createProducerTemplate()
                .sendBodyAndHeader("direct:order", "order-1", "orderId", "order-1");

        assertDeliveredAsAChildOfTheSendWithout("orderId");
    }

    /** docs/operating.md: the tracer adds the trace context as the send span opens, after the route's own steps. */
    @Test
    void traceContextCrossesASendingRouteThatRemovedEveryHeader() throws Exception {
        worker("redis-delay:orders", false);
        tracedNode(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:order").routeId("order").removeHeaders("*").to("redis-delay:orders");
            }
        }).createProducerTemplate().sendBodyAndHeader("direct:order", "order-1", "orderId", "order-1");

        assertDeliveredAsAChildOfTheSendWithout("orderId");
    }

    @Test
    void everyDeliveryAttemptAndTheDeadLetterAreChildrenOfTheSchedulingSpan() throws Exception {
        worker("redis-delay:orders?retrySchedule=100&maxDeliveries=2", true);
        scheduler("redis-delay:orders").createProducerTemplate().sendBody("direct:order", "order-1");

        awaitDeliverySpans(3);
        SpanData scheduled = onlySpan(Op.EVENT_SENT);
        List<SpanData> deliveries = spans(Op.EVENT_RECEIVED);

        assertThat(deliveries).hasSize(3).allSatisfy(delivery -> {
            assertThat(delivery.getTraceId()).isEqualTo(scheduled.getTraceId());
            assertThat(delivery.getParentSpanId()).isEqualTo(scheduled.getSpanId());
        });
        assertThat(deliveries).extracting(delivery -> delivery.getStatus().getStatusCode())
                .containsExactly(StatusCode.ERROR, StatusCode.ERROR, StatusCode.UNSET);
        assertThat(deliveries).extracting(delivery -> delivery.getAttributes().get(AttributeKey.stringKey("url.path")))
                .containsExactly("orders", "orders", "orders.dead");
    }

    @Test
    void aReDelayIsASendSpanBelowTheDeliveryThatSentItAndTheNextDeliveryHangsBelowThat() throws Exception {
        tracedNode(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-delay:orders").routeId("check").filter(header("checkedOnce").isNull())
                        .setHeader("checkedOnce", constant("yes")).to("redis-delay:orders?delay=100");
            }
        });
        scheduler("redis-delay:orders").createProducerTemplate().sendBody("direct:order", "order-1");

        awaitDeliverySpans(2);
        List<SpanData> sends = spans(Op.EVENT_SENT);
        List<SpanData> deliveries = spans(Op.EVENT_RECEIVED);

        assertThat(sends).hasSize(2);
        assertThat(deliveries).hasSize(2);
        SpanData first = sends.stream().filter(send -> !send.getParentSpanId().equals(deliveries.get(0).getSpanId()))
                .findFirst().orElseThrow();
        SpanData reDelay = sends.stream().filter(send -> send != first).findFirst().orElseThrow();
        assertThat(deliveries.get(0).getParentSpanId()).isEqualTo(first.getSpanId());
        assertThat(reDelay.getParentSpanId()).isEqualTo(deliveries.get(0).getSpanId());
        assertThat(deliveries.get(1).getParentSpanId()).isEqualTo(reDelay.getSpanId());
        assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getTraceId).containsOnly(first.getTraceId());
    }
}
