package dev.toolsmith.contracts.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import org.junit.jupiter.api.Test;

class SchemaProblemTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String first(String schema, String document) throws Exception {
        JsonSchema compiled = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(
                JSON.readTree(schema), SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build());
        JsonNode instance = JSON.readTree(document);
        return SchemaProblem.firstOf(compiled.validate(instance)).map(SchemaProblem::describe).orElse("valid");
    }

    @Test
    void aMissingRequiredFieldIsPointedAtItself() throws Exception {
        assertThat(first("{\"type\":\"object\",\"required\":[\"amount\"]}", "{}")).isEqualTo("/amount: is required");
    }

    @Test
    void aWrongTypeNamesTheFieldOnceWithoutTheValidatorsPrefix() throws Exception {
        String schema = "{\"type\":\"object\",\"properties\":{\"value\":{\"type\":\"number\"}}}";
        assertThat(first(schema, "{\"value\":\"x\"}")).isEqualTo("/value: string found, number expected");
    }

    @Test
    void theWholeDocumentIsNamedWhenTheRootIsWrong() throws Exception {
        assertThat(first("{\"type\":\"object\"}", "[1]")).isEqualTo("(the whole document): array found, object expected");
    }

    @Test
    void reportsTheFirstFieldInPointerOrderAndCountsTheRest() throws Exception {
        String schema = "{\"type\":\"object\",\"required\":[\"b\",\"a\"],\"properties\":{\"c\":{\"type\":\"integer\"}}}";
        assertThat(first(schema, "{\"c\":1.5}")).isEqualTo("/a: is required (and 2 more problems)");
        assertThat(first("{\"type\":\"object\",\"required\":[\"a\",\"b\"]}", "{\"b\":1}")).isEqualTo("/a: is required");
    }

    @Test
    void escapesPropertyNamesThatAreNotPlainPointerTokens() throws Exception {
        assertThat(first("{\"type\":\"object\",\"required\":[\"a/b~c\"]}", "{}")).isEqualTo("/a~1b~0c: is required");
    }

    @Test
    void nothingToReportForAValidDocumentOrNoProblems() throws Exception {
        assertThat(first("{\"type\":\"object\"}", "{}")).isEqualTo("valid");
        assertThat(SchemaProblem.firstOf(null)).isEmpty();
    }
}
