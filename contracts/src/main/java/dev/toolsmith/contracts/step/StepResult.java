package dev.toolsmith.contracts.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.search.SearchHit;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The outcome of one plan step, published on {@code step-results} keyed by plan id. */
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
        Instant completedAt) {

    public StepResult {
        outputs = outputs == null ? Map.of() : Map.copyOf(outputs);
    }

    public static StepResult failed(PlanStep step, String error) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.FAILED, null, null, null, null, null, error,
                Instant.now());
    }
}
