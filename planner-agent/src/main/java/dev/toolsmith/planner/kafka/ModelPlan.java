package dev.toolsmith.planner.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.output.structured.Description;
import java.util.List;
import java.util.Map;

/**
 * A plan as the model answers it (structured output: LangChain4j builds the format instruction from these records
 * and reads the answer into them). Nothing here is checked yet: {@link PlanSteps#read} does that.
 */
record ModelPlan(@Description("the steps in the order they run") List<Step> steps) {

    /** One step of the model's plan. */
    record Step(
            @Description("a short id of its own, e.g. s1") String id,
            @Description("the intent in UPPER_SNAKE_CASE, e.g. CONVERT_CURRENCY") String actionVerb,
            @Description("the step in one sentence") String description,
            @Description("by input name: a literal JSON value, or {\"fromStep\": \"<id of an earlier step>\", "
                    + "\"output\": \"<its output name>\"}") Map<String, JsonNode> inputs) {
    }
}
