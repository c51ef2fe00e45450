package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.ServedBy;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.Substitution;
import dev.toolsmith.contracts.step.ToolChoice;
import io.quarkiverse.mcp.server.TextContent;
import io.quarkiverse.mcp.server.ToolResponse;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A step's result as an MCP tool result. A step that did not do what was asked (DENIED by a policy, FAILED,
 * UNRESOLVED) is a tool error ({@code isError: true}) whose content says why: the planner's model reads it and
 * can act on it. It is never a JSON-RPC error, which a client treats as the server failing. The candidates of
 * a PROPOSED or UNRESOLVED step are its {@code choices}: in brief, only those the caller may call.
 */
@ApplicationScoped
public class StepAnswers {

    private static final Set<StepStatus> ERRORS = Set.of(StepStatus.DENIED, StepStatus.FAILED, StepStatus.UNRESOLVED);

    /** What the planner reads: the structured content, also sent as JSON text for clients without it. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record StepAnswer(String stepId, String planId, StepStatus status, Map<String, JsonNode> outputs,
            ServedBy servedBy, Substitution substitution, List<ToolChoice> candidates, List<PlanStep> plan,
            String error) {
    }

    /** The result's choices are already those its caller may call (docs/capabilities-manager.md). */
    public ToolResponse of(StepResult result) {
        StepAnswer answer = new StepAnswer(result.stepId(), result.planId(), result.status(), result.outputs(),
                result.servedBy(), result.substitution(), result.choices(), result.plan(), result.error());
        return response(ERRORS.contains(result.status()), answer);
    }

    /** A refusal decided before any step ran (an unknown tool id, bad arguments). */
    public static ToolResponse refusal(String reason) {
        return response(true, Map.of("status", "REFUSED", "error", reason));
    }

    static ToolResponse response(boolean error, Object structured) {
        return new ToolResponse(error, List.of(new TextContent(BriefLists.json(structured))), structured, null);
    }
}
