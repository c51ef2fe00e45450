package dev.toolsmith.eventing.tracing;

import dev.toolsmith.contracts.event.EventEnvelope;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The span of the unit of work running now, on the tracer {@code quarkus-opentelemetry} builds (exporters:
 * {@link SpanExport}; its automatic REST, Kafka and SQL spans are off, see the eventing defaults).
 *
 * <p>Mutiny pipelines hop threads, so OpenTelemetry's thread-local "current context" would be lost between
 * steps of one unit of work. The current span is kept instead in the local data of the Vert.x duplicated
 * context the work runs on (each step, each REST request has its own), which follows the work across
 * {@code emitOn}, database calls and timers exactly as the log MDC does.
 *
 * <p>Spans cross Kafka in the envelope's {@code traceparent} (W3C trace context), never in thread state.
 */
@ApplicationScoped
public class Tracing {

    private static final String CURRENT_SPAN = Tracing.class.getName() + ".current-span";
    private static final String TRACEPARENT = "traceparent";

    private final Tracer tracer;
    // The envelope's traceparent is W3C trace context whatever quarkus.otel.propagators says for HTTP.
    private final W3CTraceContextPropagator propagator = W3CTraceContextPropagator.getInstance();

    public Tracing(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer("dev.toolsmith");
    }

    /** A span continuing the trace the event came in (a new trace when it carries none). */
    public Span startFromEnvelope(String spanName, EventEnvelope envelope) {
        return start(spanName, SpanKind.CONSUMER, envelope == null ? null : envelope.traceparent());
    }

    /** A span continuing a caller's W3C {@code traceparent} header (a new trace when absent or malformed). */
    public Span startFromTraceparent(String spanName, String traceparent) {
        return start(spanName, SpanKind.SERVER, traceparent);
    }

    /** A span under the current one of this unit of work (a new trace when there is none). */
    public Span startChild(String spanName) {
        Span parent = current();
        return tracer.spanBuilder(spanName)
                .setParent(parent == null ? Context.root() : Context.root().with(parent))
                .startSpan();
    }

    private Span start(String spanName, SpanKind kind, String traceparent) {
        Context parent = traceparent == null || traceparent.isBlank() ? Context.root()
                : propagator.extract(Context.root(), Map.of(TRACEPARENT, traceparent), MapGetter.INSTANCE);
        return tracer.spanBuilder(spanName).setSpanKind(kind).setParent(parent).startSpan();
    }

    /**
     * Makes {@code span} the current span of the unit of work on this Vert.x duplicated context: what
     * {@link #startChild} continues and what {@link #currentTraceparent} (thus every outbox event) carries.
     */
    public void makeCurrent(Span span) {
        if (!VertxContext.isOnDuplicatedContext()) {
            throw new IllegalStateException("a current span needs the unit of work's own Vert.x duplicated context");
        }
        ContextLocals.put(CURRENT_SPAN, span);
    }

    /** The current span of this unit of work, or null outside one. */
    public Span current() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.<Span>get(CURRENT_SPAN).orElse(null) : null;
    }

    /** The W3C traceparent of the current span, or null outside a traced unit of work. */
    public String currentTraceparent() {
        return traceparentOf(current());
    }

    /** The current trace id (32 hex digits), or null outside a traced unit of work. */
    public String currentTraceId() {
        Span span = current();
        return span == null || !span.getSpanContext().isValid() ? null : span.getSpanContext().getTraceId();
    }

    /** The W3C traceparent naming {@code span} as the parent, or null for none. */
    public String traceparentOf(Span span) {
        if (span == null || !span.getSpanContext().isValid()) {
            return null;
        }
        Map<String, String> carrier = new HashMap<>();
        propagator.inject(Context.root().with(span), carrier, Map::put);
        return carrier.get(TRACEPARENT);
    }

    /** Ends {@code span} as failed by {@code failure}. */
    public void endWithFailure(Span span, Throwable failure) {
        span.recordException(failure);
        span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
        span.end();
    }

    /** Ends {@code span}, as failed when {@code failure} is not null. */
    public void end(Span span, Throwable failure) {
        if (failure == null) {
            span.end();
        } else {
            endWithFailure(span, failure);
        }
    }

    private enum MapGetter implements TextMapGetter<Map<String, String>> {
        INSTANCE;

        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return List.copyOf(carrier.keySet());
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    }
}
