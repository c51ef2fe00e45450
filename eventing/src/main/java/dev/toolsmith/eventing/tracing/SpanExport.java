package dev.toolsmith.eventing.tracing;

import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Where finished spans go, as {@link TracingConfig} says at run time. {@code quarkus-opentelemetry} adds
 * every {@link SpanProcessor} bean to its tracer provider and shuts it down (flushing the batch) on stop.
 *
 * <p>Not the extension's own OTLP exporter: whether it exists is fixed at build time, and it would send
 * to localhost:4317 whenever no collector is configured, while operators choose none, logging or otlp per
 * start ({@code TOOLSMITH_TRACING_EXPORTER}); so it is off ({@code quarkus.otel.exporter.otlp.enabled=false}).
 */
public class SpanExport {

    @Produces
    @Singleton
    @Unremovable
    SpanProcessor chosenExporter(TracingConfig config) {
        return switch (config.exporter()) {
            // No exporter: spans still get real trace and span ids, so the trace still travels in the events.
            case NONE -> SpanProcessor.composite();
            // One line per span as it ends (the e2e DemoIT reads them), not batched.
            case LOGGING -> SimpleSpanProcessor.create(LoggingSpanExporter.create());
            case OTLP -> BatchSpanProcessor.builder(
                    OtlpGrpcSpanExporter.builder().setEndpoint(config.otlp().endpoint()).build()).build();
        };
    }
}
