package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.langchain4j.model.output.structured.Description;
import java.util.List;

/**
 * The LLM's decomposition as the AI service reads it ({@link DecompositionLlm}): only its shape is
 * guaranteed here; whether it is a plan Toolsmith can run is {@link DecompositionValidator}'s call.
 * Fields a model adds beyond these are ignored, as they were before the answer was typed.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record ProposedPlan(
        @Description("the steps in the order they run; an empty array if the listed verbs cannot do the step")
        List<ProposedStep> steps) {
}
