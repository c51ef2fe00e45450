package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.execution.ExecutionContext;
import dev.toolsmith.capabilities.execution.PluginExecutors;
import dev.toolsmith.capabilities.execution.PluginOutcome;
import dev.toolsmith.capabilities.execution.SchemaValidation;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.ServedBy;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.Substitution;
import dev.toolsmith.eventing.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one plugin for one step: inputs checked against its input schema, the executor for its type,
 * outputs checked against its output schema. Every way this can go wrong becomes a FAILED (or DENIED)
 * result whose error names the plugin and the field.
 */
@ApplicationScoped
public class PluginRunner {

    private final PluginExecutors executors;
    private final SchemaValidation schemas;
    private final Tracing tracing;

    public PluginRunner(PluginExecutors executors, SchemaValidation schemas, Tracing tracing) {
        this.executors = executors;
        this.schemas = schemas;
        this.tracing = tracing;
    }

    /** {@code substitution} is null when the step named the plugin's own verb. */
    public Uni<StepResult> run(PlanStep step, Plugin plugin, ObjectNode inputs, Substitution substitution) {
        ServedBy servedBy = new ServedBy(plugin.toolId(), plugin.verb(), plugin.version());
        if (!plugin.serves()) {
            return Uni.createFrom().item(result(step, StepStatus.FAILED, null, servedBy, substitution,
                    "plugin " + plugin.toolId() + " serving " + plugin.verb() + " is disabled"
                            + (plugin.statusReason() == null ? "" : ": " + plugin.statusReason())));
        }
        Optional<String> badInput = schemas.checkInputs(plugin, inputs);
        if (badInput.isPresent()) {
            return Uni.createFrom().item(result(step, StepStatus.FAILED, null, servedBy, substitution,
                    badInput.get() + " (plugin " + plugin.toolId() + ")"));
        }
        ExecutionContext context = new ExecutionContext(step.stepId(), step.planId(), step.caller());
        // The span is not made current and nothing of it is handed to the executor: the trace context
        // never leaves for an external API.
        Span span = tracing.startChild("execute " + plugin.toolId());
        return executors.forPlugin(plugin).execute(plugin, inputs, context)
                .map(outcome -> toResult(step, plugin, servedBy, substitution, outcome))
                .onItemOrFailure().invoke((result, failure) -> {
                    if (result != null) {
                        span.setAttribute("toolsmith.step.status", result.status().name());
                    }
                    tracing.end(span, failure);
                });
    }

    private StepResult toResult(PlanStep step, Plugin plugin, ServedBy servedBy, Substitution substitution,
            PluginOutcome outcome) {
        if (outcome instanceof PluginOutcome.Succeeded succeeded) {
            return succeeded(step, plugin, servedBy, substitution, succeeded.outputs());
        }
        if (outcome instanceof PluginOutcome.Denied denied) {
            return result(step, StepStatus.DENIED, null, servedBy, substitution, denied.reason());
        }
        return result(step, StepStatus.FAILED, null, servedBy, substitution,
                plugin.toolId() + ": " + ((PluginOutcome.Failed) outcome).error());
    }

    private StepResult succeeded(PlanStep step, Plugin plugin, ServedBy servedBy, Substitution substitution,
            ObjectNode outputs) {
        Optional<String> badOutput = schemas.checkOutputs(plugin, outputs);
        if (badOutput.isPresent()) {
            return result(step, StepStatus.FAILED, null, servedBy, substitution,
                    "plugin " + plugin.toolId() + " broke its own output schema: " + badOutput.get());
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        outputs.fields().forEachRemaining(field -> values.put(field.getKey(), field.getValue()));
        return result(step, substitution == null ? StepStatus.SUCCEEDED : StepStatus.SUBSTITUTED, values, servedBy,
                substitution, null);
    }

    static StepResult result(PlanStep step, StepStatus status, Map<String, JsonNode> outputs, ServedBy servedBy,
            Substitution substitution, String error) {
        return new StepResult(step.stepId(), step.planId(), status, outputs, servedBy, substitution, null, null, error,
                Instant.now());
    }
}
