package dev.toolsmith.capabilities.resolution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.capabilities.plugins.ConvertUnitsPlugin;
import dev.toolsmith.capabilities.plugins.EvaluateExpressionPlugin;
import dev.toolsmith.capabilities.plugins.InternalPlugin;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DecompositionValidatorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DecompositionValidator validator = new DecompositionValidator(5);
    private final PlanStep original = new PlanStep("s9", "p1", "TRIP_COST", null,
            Map.of("distance", StepInput.reference("s1", "km")), null, "planner-a");

    private static Plugin plugin(InternalPlugin code) {
        return new Plugin(code.manifest().id(), code.manifest().verb(), PluginType.INTERNAL, PluginStatus.ENABLED, null,
                1, "h", code.manifest(), null);
    }

    private final Function<String, Optional<Plugin>> registry = verb -> switch (VerbNormalizer.normalize(verb)) {
        case "evaluate expression" -> Optional.of(plugin(new EvaluateExpressionPlugin()));
        case "convert units" -> Optional.of(plugin(new ConvertUnitsPlugin()));
        default -> Optional.empty();
    };

    /** The answer as the AI service reads it (fences and prose are its business, tested in PlanDecomposerLlmTest). */
    private static ProposedPlan read(String json) {
        try {
            return JSON.readValue(json, ProposedPlan.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private DecompositionValidator.Result validate(String json) {
        return validator.validate(read(json), original, registry);
    }

    @Test
    void aWellFormedPlanIsReturnedWithPrefixedIdsAndRewrittenReferences() {
        var result = validate("""
                {"steps": [
                  {"stepId": "miles", "actionVerb": "CONVERT_UNITS",
                   "inputs": {"value": {"sourceStep": "s1", "outputName": "km"}, "from": {"value": "km"}, "to": "mi"}},
                  {"stepId": "cost", "actionVerb": "evaluateExpression",
                   "inputs": {"expression": {"value": "m * 0.5"}, "variables": {"sourceStep": "miles", "outputName": "value"}}}
                ]}""");
        assertThat(result.errors()).isEmpty();
        assertThat(result.plan()).extracting(PlanStep::stepId).containsExactly("s9.miles", "s9.cost");
        assertThat(result.plan().get(0).inputs().get("value").sourceStep()).isEqualTo("s1");
        assertThat(result.plan().get(1).inputs().get("variables").sourceStep()).isEqualTo("s9.miles");
        assertThat(result.plan().get(1).actionVerb()).isEqualTo("EVALUATE_EXPRESSION");
    }

    @Test
    void everyProblemIsNamed() {
        var result = validate("""
                {"steps": [
                  {"stepId": "a", "actionVerb": "BOOK_FLIGHT", "inputs": {}},
                  {"stepId": "a", "actionVerb": "CONVERT_UNITS", "inputs": {"value": {"sourceStep": "later", "outputName": "x"}}},
                  {"stepId": "b", "actionVerb": "EVALUATE_EXPRESSION",
                   "inputs": {"expression": {"sourceStep": "a", "outputName": "nothing"}}}
                ]}""");
        assertThat(result.valid()).isFalse();
        assertThat(result.errors()).anyMatch(e -> e.contains("'BOOK_FLIGHT', which is not registered"))
                .anyMatch(e -> e.contains("stepId 'a' is used by more than one step"))
                .anyMatch(e -> e.contains("refers to step 'later', which is not an earlier step"))
                .anyMatch(e -> e.contains("lacks required input 'from'"))
                .anyMatch(e -> e.contains("output 'nothing' of step 'a', but CONVERT_UNITS produces: value, unit"));
    }

    @Test
    void theThreeInputFormsAreReadAsLiteralsAndReferences() {
        var result = validate("""
                {"steps": [
                  {"stepId": "km", "actionVerb": "CONVERT_UNITS", "description": "miles to km",
                   "inputs": {"value": {"sourceStep": "s1", "outputName": "km"},
                              "from": {"value": "mi", "valueType": "string"}, "to": "km", "note": null}}
                ]}""");
        assertThat(result.errors()).isEmpty();
        PlanStep step = result.plan().get(0);
        assertThat(step.description()).isEqualTo("miles to km");
        assertThat(step.inputs().get("value").isReference()).isTrue();
        assertThat(step.inputs().get("from").value().asText()).isEqualTo("mi");
        assertThat(step.inputs().get("from").valueType()).isEqualTo("string");
        assertThat(step.inputs().get("to").value().asText()).isEqualTo("km");
        assertThat(step.inputs().get("note").value().isNull()).isTrue();
    }

    @Test
    void aStepWithoutIdVerbOrInputsIsNamedByItsPosition() {
        var result = validate("""
                {"steps": [{"description": "nothing else"}, null]}""");
        assertThat(result.errors()).containsExactly("step #1 has no stepId", "step #1 has no actionVerb",
                "step #2 is null; every step must be an object");
    }

    @Test
    void aJavaNullInputValueIsTheJsonNullLiteral() {
        Map<String, JsonNode> inputs = new HashMap<>();
        inputs.put("expression", null);
        inputs.put("variables", JSON.createObjectNode());
        var result = validator.validate(new ProposedPlan(List.of(
                new ProposedStep("e", "EVALUATE_EXPRESSION", null, inputs))), original, registry);
        assertThat(result.errors()).isEmpty();
        assertThat(result.plan().get(0).inputs().get("expression").value().isNull()).isTrue();
    }

    @Test
    void emptyMissingAndTooLongPlansAreRejected() {
        assertThat(validate("{\"steps\": []}").errors()).containsExactly(
                "the answer must be a JSON object {\"steps\": [...]} with at least one step");
        assertThat(validate("{}").errors().get(0)).contains("at least one step");
        assertThat(validator.validate(null, original, registry).errors().get(0)).contains("at least one step");
        String six = "{\"steps\": [" + String.join(",", Collections.nCopies(6,
                "{\"stepId\": \"x\", \"actionVerb\": \"CONVERT_UNITS\"}")) + "]}";
        assertThat(validate(six).errors()).containsExactly("the plan has 6 steps; at most 5 are allowed");
    }
}
