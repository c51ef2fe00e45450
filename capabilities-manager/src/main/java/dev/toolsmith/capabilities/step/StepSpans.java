package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.eventing.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The span of one step, "step &lt;VERB&gt;", whichever door the step came through: it continues the
 * planner's trace (the plan-step envelope's or the REST {@code traceparent}), is the parent of the step's
 * search and execution, and ends with the step's status.
 */
@ApplicationScoped
public class StepSpans {

    private final Tracing tracing;

    public StepSpans(Tracing tracing) {
        this.tracing = tracing;
    }

    /** For a step read from {@code plan-steps}, in the trace of its envelope. */
    public Span fromKafka(PlanStep step, EventEnvelope envelope) {
        return describe(tracing.startFromEnvelope(name(step), envelope), step);
    }

    /** For a step posted to {@code /steps}, in the trace of the request's {@code traceparent} header. */
    public Span fromRest(PlanStep step, String traceparent) {
        return describe(tracing.startFromTraceparent(name(step), traceparent), step);
    }

    /** Ends the step's span with what became of the step (a failure: it could not be processed at all). */
    public void end(Span span, StepOutcome outcome, Throwable failure) {
        if (outcome != null) {
            span.setAttribute("toolsmith.step.status",
                    outcome.result() == null ? outcome.kind().name() : outcome.result().status().name());
        }
        tracing.end(span, failure);
    }

    private static String name(PlanStep step) {
        return "step " + step.actionVerb();
    }

    private static Span describe(Span span, PlanStep step) {
        return span.setAttribute("toolsmith.step.id", step.stepId())
                .setAttribute("toolsmith.plan.id", step.planId())
                .setAttribute("toolsmith.step.verb", step.actionVerb());
    }
}
