package dev.toolsmith.capabilities.support;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.testsupport.KafkaTestClient;
import dev.toolsmith.testsupport.KafkaTestResource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Builds steps and reads their results from {@code step-results}, as a planner would. */
public final class Steps {

    public static final ContractCodec CODEC = new ContractCodec();
    /** The planner the tests' plan-steps records are signed by (its key is configured in the test properties). */
    public static final String PLANNER_TEST = "planner-test";
    public static final PlanStepSigner SIGNER = PlanStepSigner.of(PLANNER_TEST, "planner-test-key");

    private Steps() {
    }

    /** A Kafka client of the test broker that signs what it sends as {@link #PLANNER_TEST}. */
    public static KafkaTestClient kafka() {
        return new KafkaTestClient(KafkaTestResource.bootstrapServers(), SIGNER);
    }

    public static PlanStep step(String stepId, String planId, String verb, Map<String, StepInput> inputs) {
        return new PlanStep(stepId, planId, verb, null, inputs, null, PLANNER_TEST);
    }

    public static StepInput value(Object literal) {
        return StepInput.literal(CODEC.mapper().valueToTree(literal), null);
    }

    public static StepInput ref(String sourceStep, String outputName) {
        return StepInput.reference(sourceStep, outputName);
    }

    public static Map<String, StepInput> inputs(Object... nameValue) {
        Map<String, StepInput> inputs = new LinkedHashMap<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            Object given = nameValue[i + 1];
            inputs.put((String) nameValue[i], given instanceof StepInput input ? input : value(given));
        }
        return inputs;
    }

    /** Every result for {@code stepId} published on step-results within {@code timeout} (waits for the first). */
    public static List<StepResult> results(KafkaTestClient.Reader reader, String stepId, Duration timeout) {
        return reader.awaitMatching(r -> stepId.equals(resultOf(r).stepId()), timeout).stream()
                .map(Steps::resultOf).toList();
    }

    public static StepResult result(KafkaTestClient.Reader reader, String stepId) {
        List<StepResult> results = results(reader, stepId, Duration.ofSeconds(20));
        if (results.isEmpty()) {
            throw new AssertionError("no result for step " + stepId + " on " + Topics.STEP_RESULTS);
        }
        return results.get(0);
    }

    public static String key(KafkaTestClient.Reader reader, String stepId) {
        return reader.pollFor(Duration.ZERO).stream().filter(r -> stepId.equals(resultOf(r).stepId())).findFirst()
                .map(ConsumerRecord::key).orElseThrow();
    }

    static StepResult resultOf(ConsumerRecord<String, byte[]> record) {
        EventEnvelope envelope = CODEC.openEnvelope(record.value());
        return CODEC.payload(envelope, StepResult.class);
    }

    public static com.fasterxml.jackson.databind.JsonNode json(String text) {
        return CODEC.parse(text);
    }

    public static JsonNodeFactory nodes() {
        return JsonNodeFactory.instance;
    }
}
