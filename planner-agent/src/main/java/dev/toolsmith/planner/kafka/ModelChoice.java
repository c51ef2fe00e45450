package dev.toolsmith.planner.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.output.structured.Description;
import java.util.Map;

/**
 * The model's pick after an UNRESOLVED or PROPOSED step, as it answers it (structured output): a tool id from the
 * offered choices with the inputs for it, or why it gives up. {@link PlanSteps#readChoice} checks it.
 */
record ModelChoice(
        @Description("the id of the chosen tool, one of the offered choices") String toolId,
        @Description("by that tool's required parameter names: literal JSON values") Map<String, JsonNode> inputs,
        @Description("only when no choice fits: why, instead of toolId and inputs") String giveUp) {
}
