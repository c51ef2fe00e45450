package dev.toolsmith.capabilities.support;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * Every span the service ends, kept in memory so tests can check the shape of a trace: quarkus-opentelemetry
 * adds the processor produced here, beside the exporter the configuration names, to its tracer provider.
 */
@Singleton
@Unremovable
public class CollectedSpans {

    // One per application start: the SDK shuts its exporter down when the application stops.
    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

    @Produces
    @Singleton
    SpanProcessor collector() {
        return SimpleSpanProcessor.create(exporter);
    }

    public List<SpanData> ofTrace(String traceId) {
        return exporter.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(traceId)).toList();
    }

    /** Every finished span so far. */
    public List<SpanData> all() {
        return exporter.getFinishedSpanItems();
    }

    /** The finished spans called {@code name}, whatever their trace. */
    public List<SpanData> named(String name) {
        return exporter.getFinishedSpanItems().stream().filter(span -> span.getName().equals(name)).toList();
    }
}
