package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.search.SearchHit;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one plan step, published on {@code step-results} keyed by plan id. A PROPOSED or UNRESOLVED
 * step carries its {@code candidates} (search hits, as before) and the same tools in brief as {@code choices}
 * (only those the step's caller may call): a follow-up step naming one in {@code toolId} runs it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record StepResult(
        String stepId,
        String planId,
        StepStatus status,
        Map<String, JsonNode> outputs,
        ServedBy servedBy,
        Substitution substitution,
        List<PlanStep> plan,
        List<SearchHit> candidates,
        String error,
        Instant completedAt,
        List<ToolChoice> choices) {

    public StepResult {
        outputs = outputs == null ? Map.of() : Map.copyOf(outputs);
        choices = choices == null || choices.isEmpty() ? null : List.copyOf(choices);
    }

    /** A result without choices (every status but PROPOSED and UNRESOLVED). */
    public StepResult(String stepId, String planId, StepStatus status, Map<String, JsonNode> outputs, ServedBy servedBy,
            Substitution substitution, List<PlanStep> plan, List<SearchHit> candidates, String error,
            Instant completedAt) {
        this(stepId, planId, status, outputs, servedBy, substitution, plan, candidates, error, completedAt, null);
    }

    /** The same result with these choices. */
    public StepResult withChoices(List<ToolChoice> newChoices) {
        return new StepResult(stepId, planId, status, outputs, servedBy, substitution, plan, candidates, error,
                completedAt, newChoices);
    }

    public static StepResult failed(PlanStep step, String error) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.FAILED, null, null, null, null, null, error,
                Instant.now());
    }
}
