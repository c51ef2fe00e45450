package dev.toolsmith.capabilities;

import static dev.toolsmith.capabilities.NovelVerbTest.hit;
import static dev.toolsmith.capabilities.NovelVerbTest.id;
import static dev.toolsmith.capabilities.NovelVerbTest.reply;
import static dev.toolsmith.capabilities.support.Steps.inputs;
import static dev.toolsmith.capabilities.support.Steps.result;
import static dev.toolsmith.capabilities.support.Steps.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.capabilities.support.ScriptedLibrarian;
import dev.toolsmith.capabilities.support.Steps;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.RecordedLlmResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract-confirmed rule, for a deployment that switches it on ({@code
 * toolsmith.substitution.contract-confirmed-threshold}, off by default): below the threshold, a hit is substituted
 * only when the step's inputs are exactly the tool's parameters.
 */
@QuarkusTest
@TestProfile(ContractConfirmedRuleTest.RuleOn.class)
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class ContractConfirmedRuleTest {

    /** The rule from 0.5, as it was the default before 2026-11-29. */
    public static class RuleOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("toolsmith.substitution.contract-confirmed-threshold", "0.5");
        }
    }

    private final ScriptedLibrarian librarian = ScriptedLibrarian.get();

    @Test
    void belowTheThresholdOnlyInputsThatAreExactlyTheToolsParametersConfirmASubstitution() {
        String confirmedVerb = "RESCALE_QUANTITY";
        String unconfirmedVerb = "RESCALE_SOMETHING";
        String tooWeakVerb = "RESCALE_FAINTLY";
        SearchHit middling = hit("internal.convert-units", "CONVERT_UNITS", 0.55, Risk.READ_ONLY);
        librarian.answer(confirmedVerb, request -> reply(request, 0.95, middling));
        librarian.answer(unconfirmedVerb, request -> reply(request, 0.95, middling));
        librarian.answer(tooWeakVerb, request -> reply(request, 0.95,
                hit("internal.convert-units", "CONVERT_UNITS", 0.45, Risk.READ_ONLY)));
        String plan = id("plan");
        try (KafkaTestClient kafka = Steps.kafka();
                KafkaTestClient.Reader results = kafka.reader(Topics.STEP_RESULTS)) {
            kafka.send(Topics.PLAN_STEPS, plan, step("k1-" + plan, plan, confirmedVerb,
                    inputs("value", 3, "from", "km", "to", "m")));
            StepResult confirmed = result(results, "k1-" + plan);
            assertThat(confirmed.status()).isEqualTo(StepStatus.SUBSTITUTED);
            assertThat(confirmed.substitution().confidence()).isEqualTo(0.55);
            assertThat(confirmed.outputs().get("value").decimalValue()).isEqualByComparingTo("3000");

            // One input the tool has no parameter for: the inputs no longer vouch for the match.
            kafka.send(Topics.PLAN_STEPS, plan, step("k2-" + plan, plan, unconfirmedVerb,
                    inputs("value", 3, "from", "km", "to", "m", "colour", "red")));
            StepResult unconfirmed = result(results, "k2-" + plan);
            assertThat(unconfirmed.status()).isEqualTo(StepStatus.UNRESOLVED);
            assertThat(unconfirmed.error()).contains("confidence 0.55 < threshold 0.95", "not exactly its parameters");

            // Under the rule's own cut, exact inputs do not help either.
            kafka.send(Topics.PLAN_STEPS, plan, step("k3-" + plan, plan, tooWeakVerb,
                    inputs("value", 3, "from", "km", "to", "m")));
            StepResult tooWeak = result(results, "k3-" + plan);
            assertThat(tooWeak.status()).isEqualTo(StepStatus.UNRESOLVED);
            assertThat(tooWeak.error()).contains("confidence 0.45 < threshold 0.95");
        }
    }
}
