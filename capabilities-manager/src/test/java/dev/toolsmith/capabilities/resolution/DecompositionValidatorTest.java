package dev.toolsmith.capabilities.resolution;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class DecompositionValidatorTest {

    private final DecompositionValidator validator = new DecompositionValidator(new ObjectMapper(), 5);
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

    @Test
    void aWellFormedPlanIsReturnedWithPrefixedIdsAndRewrittenReferences() {
        var result = validator.validate("""
                Here you go:
                ```json
                {"steps": [
                  {"stepId": "miles", "actionVerb": "CONVERT_UNITS",
                   "inputs": {"value": {"sourceStep": "s1", "outputName": "km"}, "from": {"value": "km"}, "to": "mi"}},
                  {"stepId": "cost", "actionVerb": "evaluateExpression",
                   "inputs": {"expression": {"value": "m * 0.5"}, "variables": {"sourceStep": "miles", "outputName": "value"}}}
                ]}
                ```""", original, registry);
        assertThat(result.errors()).isEmpty();
        assertThat(result.plan()).extracting(PlanStep::stepId).containsExactly("s9.miles", "s9.cost");
        assertThat(result.plan().get(0).inputs().get("value").sourceStep()).isEqualTo("s1");
        assertThat(result.plan().get(1).inputs().get("variables").sourceStep()).isEqualTo("s9.miles");
        assertThat(result.plan().get(1).actionVerb()).isEqualTo("EVALUATE_EXPRESSION");
    }

    @Test
    void everyProblemIsNamed() {
        var result = validator.validate("""
                {"steps": [
                  {"stepId": "a", "actionVerb": "BOOK_FLIGHT", "inputs": {}},
                  {"stepId": "a", "actionVerb": "CONVERT_UNITS", "inputs": {"value": {"sourceStep": "later", "outputName": "x"}}},
                  {"stepId": "b", "actionVerb": "EVALUATE_EXPRESSION",
                   "inputs": {"expression": {"sourceStep": "a", "outputName": "nothing"}}}
                ]}""", original, registry);
        assertThat(result.valid()).isFalse();
        assertThat(result.errors()).anyMatch(e -> e.contains("'BOOK_FLIGHT', which is not registered"))
                .anyMatch(e -> e.contains("stepId 'a' is used by more than one step"))
                .anyMatch(e -> e.contains("refers to step 'later', which is not an earlier step"))
                .anyMatch(e -> e.contains("lacks required input 'from'"))
                .anyMatch(e -> e.contains("output 'nothing' of step 'a', but CONVERT_UNITS produces: value, unit"));
    }

    @Test
    void notJsonAndEmptyPlansAreRejected() {
        assertThat(validator.validate("I cannot help with that.", original, registry).errors().get(0))
                .contains("not valid JSON");
        assertThat(validator.validate("{\"steps\": []}", original, registry).errors().get(0))
                .contains("at least one step");
    }
}
