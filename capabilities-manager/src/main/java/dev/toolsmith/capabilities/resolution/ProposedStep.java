package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.output.structured.Description;
import java.util.Map;

/**
 * One step of a {@link ProposedPlan}. Each input is kept as the JSON the model wrote because it comes
 * in three forms — {@code {"value": ...}}, {@code {"sourceStep", "outputName"}} or a bare value — and
 * {@link DecompositionValidator} tells them apart.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProposedStep(
        @Description("unique within the plan, e.g. s1") String stepId,
        @Description("one of the listed verbs") String actionVerb,
        @Description("why this step") String description,
        @Description("input name -> {\"value\": <JSON value>} or {\"sourceStep\": \"<earlier stepId>\", \"outputName\": \"<its output>\"}")
        Map<String, JsonNode> inputs) {
}
