package dev.toolsmith.capabilities.resolution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InputMapperTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final InputMapper mapper = new InputMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    private static final String FX_SCHEMA = """
            {"type": "object", "required": ["amount", "fromCurrency", "to_currency"],
             "properties": {"amount": {"type": "number"}, "fromCurrency": {"type": "string"},
                            "to_currency": {"type": "string", "x-aliases": ["target"]}, "date": {"type": "string"}}}""";

    @Test
    void mapsByExactNameThenAliasThenSpellingVariant() throws Exception {
        InputMapping mapping = mapper.map((ObjectNode) json("{\"amount\": 12, \"FROM_CURRENCY\": \"EUR\", \"target\": \"USD\"}"),
                json(FX_SCHEMA));
        assertThat(mapping.complete()).isTrue();
        assertThat(mapping.assignments()).isEqualTo(Map.of("amount", "amount", "fromCurrency", "FROM_CURRENCY",
                "to_currency", "target"));
        assertThat(mapping.apply((ObjectNode) json("{\"amount\": 12, \"FROM_CURRENCY\": \"EUR\", \"target\": \"USD\"}")))
                .isEqualTo(json("{\"amount\": 12, \"fromCurrency\": \"EUR\", \"to_currency\": \"USD\"}"));
    }

    @Test
    void aNameMatchOfTheWrongTypeIsNotTaken() throws Exception {
        InputMapping mapping = mapper.map((ObjectNode) json("{\"amount\": \"twelve\", \"fromCurrency\": \"EUR\", "
                + "\"toCurrency\": \"USD\"}"), json(FX_SCHEMA));
        assertThat(mapping.complete()).isFalse();
        assertThat(mapping.unmappedRequired()).containsExactly("amount");
    }

    @Test
    void aSingleLeftoverRequiredParameterTakesTheSingleCompatibleLeftoverInput() throws Exception {
        InputMapping mapping = mapper.map((ObjectNode) json("{\"sum\": 12, \"fromCurrency\": \"EUR\", \"x\": \"USD\"}"),
                json(FX_SCHEMA));
        assertThat(mapping.assignments()).containsEntry("amount", "sum").containsEntry("to_currency", "x");
        assertThat(mapping.complete()).isTrue();
    }

    @Test
    void severalUnmappableRequiredParametersMeanNoSubstitution() throws Exception {
        InputMapping mapping = mapper.map((ObjectNode) json("{\"colour\": \"red\"}"), json(FX_SCHEMA));
        assertThat(mapping.unmappedRequired()).isEqualTo(List.of("amount", "fromCurrency", "to_currency"));
    }

    @Test
    void verbsNormaliseToWords() {
        assertThat(VerbNormalizer.normalize("CONVERT_CURRENCY")).isEqualTo("convert currency");
        assertThat(VerbNormalizer.normalize("convertCurrency")).isEqualTo("convert currency");
        assertThat(VerbNormalizer.normalize(" get-HTTPStatus ")).isEqualTo("get http status");
    }
}
