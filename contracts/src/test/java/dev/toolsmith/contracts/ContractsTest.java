package dev.toolsmith.contracts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.EventEnvelope;
import dev.toolsmith.contracts.event.MessageType;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ContractsTest {

    private final ContractCodec codec = new ContractCodec();

    @ParameterizedTest
    @EnumSource(MessageType.class)
    void everyContractRoundTripsThroughJsonAndValidates(MessageType type) {
        Object sample = Samples.of(type);
        JsonNode json = codec.toJson(sample);

        codec.validator().validate(type, json);
        Object back = codec.read(json, type.javaType());

        assertThat(back).isEqualTo(sample);
        assertThat(codec.toJson(back)).isEqualTo(json);
    }

    @ParameterizedTest
    @EnumSource(MessageType.class)
    void everyContractTravelsInACloudEventsEnvelope(MessageType type) {
        Object sample = Samples.of(type);
        EventEnvelope envelope = codec.envelope(sample, "/test", "subject-1");

        EventEnvelope opened = codec.openEnvelope(codec.serialize(envelope));

        assertThat(opened.id()).isEqualTo(envelope.id());
        assertThat(opened.type()).isEqualTo(type.cloudEventType());
        assertThat(opened.specversion()).isEqualTo("1.0");
        assertThat(codec.payload(opened, type.javaType())).isEqualTo(sample);
    }

    @Test
    void aMissingRequiredFieldIsRejectedByName() {
        ObjectNode step = (ObjectNode) codec.toJson(Samples.planStep());
        step.remove("actionVerb");

        assertThatThrownBy(() -> codec.read(step, PlanStep.class))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("/actionVerb")
                .satisfies(e -> assertThat(((ContractViolation) e).pointer()).isEqualTo("/actionVerb"));
    }

    @Test
    void aWronglyTypedNestedFieldIsRejectedWithItsPointer() {
        ObjectNode manifest = (ObjectNode) codec.toJson(Samples.manifest());
        ((ObjectNode) manifest.get("binding")).put("timeoutMs", "soon");

        assertThatThrownBy(() -> codec.read(manifest, ToolManifest.class))
                .isInstanceOf(ContractViolation.class)
                .satisfies(e -> assertThat(((ContractViolation) e).pointer()).isEqualTo("/binding/timeoutMs"))
                .hasMessageContaining("field /binding/timeoutMs");
    }

    @Test
    void anInputThatIsNeitherValueNorReferenceIsRejected() {
        ObjectNode step = (ObjectNode) codec.toJson(Samples.planStep());
        ((ObjectNode) step.get("inputs")).putObject("broken").put("outputName", "x");

        assertThatThrownBy(() -> codec.read(step, PlanStep.class))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("/inputs/broken");
    }

    @Test
    void anEnvelopeWithoutIdIsRejected() {
        ObjectNode envelope = (ObjectNode) codec.toJson(codec.envelope(Samples.planStep(), "/test", null));
        envelope.remove("id");

        assertThatThrownBy(() -> codec.openEnvelope(envelope.toString().getBytes()))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("/id");
    }

    @Test
    void anEnvelopeCarriesItsTraceparentThroughJson() {
        String traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
        EventEnvelope traced = codec.envelope(Samples.planStep(), "/test", "plan-1").withTraceparent(traceparent);

        byte[] bytes = codec.serialize(traced);
        EventEnvelope opened = codec.openEnvelope(bytes);

        assertThat(codec.parse(new String(bytes)).path("traceparent").asText()).isEqualTo(traceparent);
        assertThat(opened).isEqualTo(traced);
        assertThat(codec.payload(opened, PlanStep.class)).isEqualTo(Samples.planStep());
    }

    @Test
    void anEnvelopeOutsideATraceHasNoTraceparentField() {
        EventEnvelope untraced = codec.envelope(Samples.planStep(), "/test", "plan-1");

        byte[] bytes = codec.serialize(untraced);

        assertThat(codec.parse(new String(bytes)).has("traceparent")).isFalse();
        assertThat(codec.openEnvelope(bytes).traceparent()).isNull();
    }

    @Test
    void aTraceparentThatIsNotAStringIsDroppedNotRefused() {
        ObjectNode envelope = (ObjectNode) codec.toJson(codec.envelope(Samples.planStep(), "/test", "plan-1"));
        envelope.putObject("traceparent").put("version", "00");

        EventEnvelope opened = codec.openEnvelope(envelope.toString().getBytes());

        assertThat(opened.traceparent()).isNull();
        assertThat(codec.payload(opened, PlanStep.class)).isEqualTo(Samples.planStep());
    }

    @Test
    void aPayloadOfAnotherTypeIsRejected() {
        EventEnvelope envelope = codec.envelope(Samples.planStep(), "/test", null);

        assertThatThrownBy(() -> codec.payload(envelope, ToolManifest.class))
                .isInstanceOf(ContractViolation.class)
                .hasMessageContaining("dev.toolsmith.plan-step");
    }

    @Test
    void notJsonIsRejectedInWords() {
        assertThatThrownBy(() -> codec.read("{\"stepId\": ", PlanStep.class))
                .isInstanceOf(ContractViolation.class)
                .hasMessageStartingWith("not valid JSON");
    }

    @Test
    void plannerWorldFieldNamesAreAccepted() {
        String planner = """
                {"id": "weather.forecast", "verb": "GET_FORECAST", "name": "Forecast",
                 "explanation": "Weather forecast for a city",
                 "inputDefinitions": [
                   {"name": "city", "type": "string", "required": true, "description": "city name"},
                   {"name": "days", "valueType": "number"}],
                 "outputDefinitions": [{"name": "forecast", "type": "object"}]}
                """;

        ToolManifest manifest = codec.read(planner, ToolManifest.class);

        assertThat(manifest.description()).isEqualTo("Weather forecast for a city");
        assertThat(manifest.inputSchema().at("/properties/city/type").asText()).isEqualTo("string");
        assertThat(manifest.inputSchema().at("/properties/days/type").asText()).isEqualTo("number");
        assertThat(manifest.inputSchema().at("/required/0").asText()).isEqualTo("city");
        assertThat(manifest.outputSchema().at("/properties/forecast/type").asText()).isEqualTo("object");
    }

    @Test
    void contentHashIgnoresVersionButSeesEveryDefinitionChange() {
        ToolManifest manifest = Samples.manifest();
        String hash = ContentHash.of(manifest, codec.mapper());

        assertThat(ContentHash.of(manifest.withVersion(9, "other"), codec.mapper())).isEqualTo(hash);
        ToolManifest changed = new ToolManifest(manifest.id(), manifest.verb(), manifest.name(),
                manifest.description() + " (now with fees)", manifest.source(), manifest.namespace(),
                manifest.domain(), manifest.tags(), manifest.inputSchema(), manifest.outputSchema(), manifest.risk(),
                manifest.binding(), manifest.healthProbe(), manifest.version(), manifest.contentHash());
        assertThat(ContentHash.of(changed, codec.mapper())).isNotEqualTo(hash);
    }

    @Test
    void aCatalogEntryWithAnUnknownStatusOrABrokenManifestIsRejectedWithItsPointer() {
        ObjectNode entry = (ObjectNode) codec.toJson(Samples.of(MessageType.CATALOG_ENTRY));
        entry.put("status", "paused");
        assertThatThrownBy(() -> codec.read(entry, CatalogEntry.class))
                .isInstanceOf(ContractViolation.class)
                .satisfies(e -> assertThat(((ContractViolation) e).pointer()).isEqualTo("/status"));

        ObjectNode broken = (ObjectNode) codec.toJson(Samples.of(MessageType.CATALOG_ENTRY));
        ((ObjectNode) broken.get("manifest")).remove("verb");
        assertThatThrownBy(() -> codec.read(broken, CatalogEntry.class))
                .isInstanceOf(ContractViolation.class)
                .satisfies(e -> assertThat(((ContractViolation) e).pointer()).isEqualTo("/manifest/verb"));
    }
}
