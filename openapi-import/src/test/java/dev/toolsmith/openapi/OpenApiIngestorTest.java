package dev.toolsmith.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class OpenApiIngestorTest {

    private final OpenApiIngestor ingestor = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());

    @Test
    void everyOperationOfAnOpenApi3DocumentBecomesAValidTool() throws Exception {
        IngestedDocument document = ingest("petstore.yaml");

        assertThat(document.dialect()).isEqualTo("OpenAPI 3.0.3");
        assertThat(document.operationCount()).isEqualTo(7);
        assertThat(document.skipped()).isEmpty();
        assertThat(document.candidates()).hasSize(7);
        assertThat(document.namespace()).isEqualTo("pets.example.com");
        assertThat(document.securitySchemes().has("apiKey")).isTrue();
        for (CandidateTool candidate : document.candidates()) {
            assertThat(ingestor.validator().problem(candidate.manifest())).as(candidate.operationKey()).isEmpty();
            assertThat(candidate.manifest().name()).matches("^[a-zA-Z0-9_-]{1,64}$");
            assertThat(candidate.manifest().contentHash()).startsWith("sha256-jcs:");
        }
        ToolManifest list = byKey(document).get("GET /pets").manifest();
        assertThat(list.verb()).isEqualTo("LIST_PETS");
        assertThat(list.name()).isEqualTo("list_pets");
        assertThat(list.id()).isEqualTo("pets.example.com:list_pets");
        assertThat(list.description()).isEqualTo("List pets\n\nLists the pets, newest first.");
        assertThat(list.risk()).isEqualTo(Risk.READ_ONLY);
        assertThat(list.tags()).containsExactly("pets");
        assertThat(list.source()).isEqualTo(ToolSourceType.OPENAPI);
        // the server variable takes its default and https wins over http
        assertThat(list.binding().serverUrl()).isEqualTo("https://eu.pets.example.com/v1");
        assertThat(list.binding().auth()).isEqualTo(new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "api_key", "apiKey"));
        // the api_key header is filled by the secret, not asked from the planner; the path-level header is merged in
        assertThat(list.inputSchema().path("properties").has("api_key")).isFalse();
        assertThat(list.inputSchema().path("properties").has("X-Trace")).isTrue();
        ParameterBinding tags = parameter(list, "tags");
        assertThat(tags.location()).isEqualTo(ParameterLocation.QUERY);
        assertThat(tags.style()).isEqualTo("pipeDelimited");
        assertThat(tags.explode()).isFalse();
        assertThat(parameter(list, "limit").explode()).isTrue();
        // OpenAPI 3.0 boolean exclusiveMaximum becomes the 2020-12 numeric form; the example is kept
        JsonNode limit = list.inputSchema().path("properties").path("limit");
        assertThat(limit.path("exclusiveMaximum").asInt()).isEqualTo(100);
        assertThat(limit.has("maximum")).isFalse();
        assertThat(limit.path("examples").get(0).asInt()).isEqualTo(20);
        assertThat(limit.path("description").asText()).isEqualTo("How many to return");
        assertThat(list.outputSchema().path("type").asText()).isEqualTo("array");
        assertThat(list.outputSchema().path("items").path("allOf")).hasSize(2);
    }

    @Test
    void risksFollowTheHttpMethod() throws Exception {
        Map<String, CandidateTool> tools = byKey(ingest("petstore.yaml"));
        assertThat(tools.get("POST /pets").manifest().risk()).isEqualTo(Risk.WRITE_REMOTE);
        assertThat(tools.get("PUT /pets/{id}").manifest().risk()).isEqualTo(Risk.WRITE_REMOTE);
        assertThat(tools.get("DELETE /pets/{id}").manifest().risk()).isEqualTo(Risk.DESTRUCTIVE);
        assertThat(tools.get("GET /status").manifest().risk()).isEqualTo(Risk.READ_ONLY);
    }

    @Test
    void aBodyPropertyThatCollidesWithAParameterIsRenamedAndBoundToTheBody() throws Exception {
        ToolManifest update = byKey(ingest("petstore.yaml")).get("PUT /pets/{id}").manifest();

        assertThat(parameter(update, "id").location()).isEqualTo(ParameterLocation.PATH);
        ParameterBinding bodyId = parameter(update, "body_id");
        assertThat(bodyId.location()).isEqualTo(ParameterLocation.BODY);
        assertThat(bodyId.wireName()).isEqualTo("id");
        assertThat(update.inputSchema().path("required")).extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("id", "body_id", "name");
        // readOnly properties are the server's to set
        assertThat(update.inputSchema().path("properties").has("createdAt")).isFalse();
        assertThat(update.binding().bodyEncoding()).isEqualTo(BodyEncoding.JSON);
        assertThat(update.verb()).isEqualTo("UPDATE_PET");
    }

    @Test
    void allOfBodiesAreMergedAndNullableBecomesATypeUnion() throws Exception {
        ToolManifest create = byKey(ingest("petstore.yaml")).get("POST /pets").manifest();

        assertThat(create.inputSchema().path("properties").fieldNames()).toIterable()
                .containsExactlyInAnyOrder("X-Trace", "name", "kind", "owner");
        assertThat(create.inputSchema().path("required")).extracting(JsonNode::asText).containsExactly("name");
        assertThat(create.inputSchema().path("properties").path("owner").path("type"))
                .extracting(JsonNode::asText).containsExactly("string", "null");
        assertThat(create.inputSchema().path("properties").path("kind").path("enum"))
                .extracting(JsonNode::asText).contains("dog", "cat", "null");
        assertThat(create.outputSchema().path("allOf")).hasSize(2);
    }

    @Test
    void aFormBodyIsBoundAsFormAndAnOperationWithoutIdGetsAVerbFromMethodAndPath() throws Exception {
        ToolManifest photo = byKey(ingest("petstore.yaml")).get("POST /pets/{id}/photo").manifest();
        assertThat(photo.verb()).isEqualTo("POST_PETS_BY_ID_PHOTO");
        assertThat(photo.binding().bodyEncoding()).isEqualTo(BodyEncoding.FORM);
        assertThat(parameter(photo, "caption").location()).isEqualTo(ParameterLocation.BODY);
        assertThat(photo.description()).isEqualTo("POST /pets/{id}/photo (Pet Store)");
    }

    @Test
    void aRecursiveSchemaIsExpandedOnceAndCutWithANote() throws Exception {
        CandidateTool person = byKey(ingest("petstore.yaml")).get("GET /people/{personId}");
        JsonNode output = person.manifest().outputSchema();

        assertThat(output.path("properties").path("name").path("type").asText()).isEqualTo("string");
        assertThat(output.path("properties").path("parent").path("description").asText())
                .contains("recursive reference");
        assertThat(output.path("properties").path("children").path("items").path("type").asText()).isEqualTo("object");
        assertThat(output.path("properties").path("pet").path("oneOf")).hasSize(2);
        assertThat(output.toString()).doesNotContain("$ref");
        assertThat(person.manifest().binding().auth().scheme()).isEqualTo(AuthBinding.Scheme.BEARER);
        assertThat(person.manifest().binding().auth().secretName()).isEqualTo("bearerAuth");
    }

    @Test
    void theHealthProbeIsTheShortestGetWithoutRequiredInputs() throws Exception {
        Map<String, CandidateTool> tools = byKey(ingest("petstore.yaml"));
        ToolManifest delete = tools.get("DELETE /pets/{id}").manifest();
        assertThat(delete.healthProbe().available()).isTrue();
        assertThat(delete.healthProbe().binding().pathTemplate()).isEqualTo("/pets");
        assertThat(delete.healthProbe().binding().method()).isEqualTo("GET");
        // a GET that needs no inputs probes itself
        assertThat(tools.get("GET /status").manifest().healthProbe().binding().pathTemplate()).isEqualTo("/status");
        // one that needs inputs cannot: the shortest GET without required inputs stands in
        assertThat(tools.get("GET /people/{personId}").manifest().healthProbe().binding().pathTemplate())
                .isEqualTo("/pets");
    }

    @Test
    void theCandidateKeepsItsDereferencedOperationWithExamples() throws Exception {
        JsonNode operation = byKey(ingest("petstore.yaml")).get("GET /pets").operation();
        assertThat(operation.path("x-toolsmith-method").asText()).isEqualTo("GET");
        assertThat(operation.path("x-toolsmith-path").asText()).isEqualTo("/pets");
        assertThat(operation.path("parameters")).extracting(p -> p.path("name").asText())
                .contains("limit", "X-Trace");
        JsonNode ok = operation.path("responses").path("200").path("content").path("application/json");
        assertThat(ok.path("example").get(0).path("name").asText()).isEqualTo("Rex");
        assertThat(ok.path("schema").path("items").has("$ref")).isFalse();
    }

    @Test
    void contentHashesAreStableAndChangeWithTheOperation() throws Exception {
        String yaml = resource("petstore.yaml");
        IngestedDocument first = ingestor.ingest(bytes(yaml), URI.create("https://pets.example.com/openapi.yaml"),
                ToolSourceType.OPENAPI);
        IngestedDocument again = ingestor.ingest(bytes(yaml), URI.create("https://pets.example.com/openapi.yaml"),
                ToolSourceType.OPENAPI);
        IngestedDocument changed = ingestor.ingest(bytes(yaml.replace("How many to return", "How many pets to return")),
                URI.create("https://pets.example.com/openapi.yaml"), ToolSourceType.OPENAPI);

        Map<String, String> before = hashes(first);
        assertThat(hashes(again)).isEqualTo(before);
        Map<String, String> after = hashes(changed);
        assertThat(after.get("GET /pets")).isNotEqualTo(before.get("GET /pets"));
        assertThat(after.get("POST /pets")).isEqualTo(before.get("POST /pets"));
    }

    @Test
    void aSwagger2DocumentIsConvertedWithItsHostFormDataAndQueryKey() throws Exception {
        IngestedDocument document = ingestor.ingest(bytes(resource("uber-swagger2.json")), null, ToolSourceType.OPENAPI);

        assertThat(document.dialect()).isEqualTo("Swagger 2.0");
        Map<String, CandidateTool> tools = byKey(document);
        ToolManifest products = tools.get("GET /products").manifest();
        assertThat(products.binding().serverUrl()).isEqualTo("https://api.rides.example.com/v1");
        assertThat(products.binding().auth()).isEqualTo(new AuthBinding(AuthBinding.Scheme.API_KEY_QUERY, "token", "token"));
        assertThat(products.inputSchema().path("required")).extracting(JsonNode::asText)
                .containsExactly("latitude", "longitude");
        ToolManifest ride = tools.get("POST /rides").manifest();
        assertThat(ride.binding().bodyEncoding()).isEqualTo(BodyEncoding.FORM);
        assertThat(parameter(ride, "product_id").location()).isEqualTo(ParameterLocation.BODY);
        assertThat(ride.outputSchema().path("properties").has("capacity")).isTrue();
    }

    @Test
    void relativeServersResolveAgainstTheDocumentLocation() throws Exception {
        String doc = """
                openapi: 3.0.0
                info: {title: Relative, version: '1'}
                servers: [{url: /api/v2}]
                paths:
                  /things:
                    get:
                      responses: {'200': {description: ok}}
                """;
        IngestedDocument fetched = ingestor.ingest(bytes(doc), URI.create("https://docs.example.org/specs/openapi.yaml"),
                ToolSourceType.OPENAPI);
        assertThat(fetched.candidates().get(0).manifest().binding().serverUrl()).isEqualTo("https://docs.example.org/api/v2");

        assertThatThrownBy(() -> ingestor.ingest(bytes(doc), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("no absolute server URL")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.NO_TOOLS);
    }

    @Test
    void longAndDuplicateOperationIdsGiveDistinctNamesWithinTheLimit() throws Exception {
        String longId = "retrieveTheCompleteListOfAllInvoicesIssuedToTheCustomerDuringTheCurrentFiscalYearInDetail";
        String doc = """
                openapi: 3.0.0
                info: {title: Names, version: '1'}
                servers: [{url: 'https://names.example.com'}]
                paths:
                  /a: {get: {operationId: %1$s, responses: {'200': {description: ok}}}}
                  /b: {get: {operationId: %1$sToo, responses: {'200': {description: ok}}}}
                  /c: {get: {operationId: sameName, responses: {'200': {description: ok}}}}
                  /d: {get: {operationId: same_name, responses: {'200': {description: ok}}}}
                """.formatted(longId);
        IngestedDocument document = ingestor.ingest(bytes(doc), null, ToolSourceType.OPENAPI);

        assertThat(document.candidates()).hasSize(4);
        assertThat(document.candidates()).extracting(c -> c.manifest().name())
                .allMatch(name -> name.length() <= 64).doesNotHaveDuplicates();
        assertThat(document.candidates()).extracting(c -> c.manifest().verb()).doesNotHaveDuplicates()
                .contains("SAME_NAME", "SAME_NAME_2");
    }

    @Test
    void malformedYamlIsRefusedWithItsLine() {
        String broken = "openapi: 3.0.0\ninfo:\n  title: [unclosed\n  version: 1\npaths: {}\n";
        assertThatThrownBy(() -> ingestor.ingest(bytes(broken), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("not valid YAML").hasMessageContaining("line")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.MALFORMED);
    }

    @Test
    void malformedJsonIsRefusedWithItsLine() {
        String broken = "{\"openapi\": \"3.0.0\",\n \"info\": {\"title\": \"x\",, }\n}";
        assertThatThrownBy(() -> ingestor.ingest(bytes(broken), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("not valid JSON at line 2")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.MALFORMED);
    }

    @Test
    void yamlInFlowStyleIsReadEvenThoughItStartsLikeJson() throws Exception {
        String flow = "{openapi: 3.0.0, info: {title: Flow, version: '1'}, servers: [{url: 'https://flow.example.com'}],"
                + " paths: {/ping: {get: {responses: {'200': {description: ok}}}}}}";
        assertThat(ingestor.ingest(bytes(flow), null, ToolSourceType.OPENAPI).candidates()).hasSize(1);
    }

    @Test
    void aYamlAliasBombIsRefusedBeforeItExpands() {
        StringBuilder bomb = new StringBuilder("openapi: 3.0.0\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 12; i++) {
            bomb.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 9; j++) {
                bomb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            }
            bomb.append("]\n");
        }
        bomb.append("info: {title: bomb, version: '1'}\npaths: {}\n");
        // 9^11 strings once expanded: refused by the alias cap before any expansion
        assertThatThrownBy(() -> ingestor.ingest(bytes(bomb.toString()), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("aliases")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.TOO_COMPLEX);
    }

    @Test
    void aDocumentThatIsNotOpenApiIsRefusedSayingSo() {
        assertThatThrownBy(() -> ingestor.ingest(bytes("name: my-service\nversion: 2\n"), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("is not an OpenAPI or Swagger document")
                .extracting(e -> ((IngestionException) e).reason()).isEqualTo(IngestionException.Reason.NOT_OPENAPI);
        assertThatThrownBy(() -> ingestor.ingest(bytes("[1, 2, 3]"), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class).hasMessageContaining("not an OpenAPI");
        assertThatThrownBy(() -> ingestor.ingest(bytes("openapi: 4.0.0\ninfo: {title: x, version: '1'}\npaths: {}"),
                null, ToolSourceType.OPENAPI)).hasMessageContaining("only OpenAPI 3.x and Swagger 2.0");
        assertThatThrownBy(() -> ingestor.ingest(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2}, null,
                ToolSourceType.OPENAPI)).hasMessageContaining("not UTF-8");
    }

    @Test
    void aCyclicRefChainIsBoundedAndStillValid() throws Exception {
        String doc = """
                openapi: 3.0.0
                info: {title: Cycles, version: '1'}
                servers: [{url: 'https://cycles.example.com'}]
                paths:
                  /nodes:
                    post:
                      requestBody:
                        content:
                          application/json:
                            schema: {$ref: '#/components/schemas/A'}
                      responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Loop'}}}}}
                components:
                  schemas:
                    A: {type: object, properties: {b: {$ref: '#/components/schemas/B'}}}
                    B: {type: object, properties: {a: {$ref: '#/components/schemas/A'}, list: {type: array, items: {$ref: '#/components/schemas/B'}}}}
                    Loop: {$ref: '#/components/schemas/Loop2'}
                    Loop2: {$ref: '#/components/schemas/Loop'}
                """;
        IngestedDocument document = ingestor.ingest(bytes(doc), null, ToolSourceType.OPENAPI);

        ToolManifest manifest = document.candidates().get(0).manifest();
        assertThat(manifest.inputSchema().path("properties").path("b").path("properties").path("a")
                .path("description").asText()).contains("A (recursive reference");
        assertThat(manifest.inputSchema().path("properties").path("b").path("properties").path("list")
                .path("items").path("description").asText()).contains("B (recursive reference");
        assertThat(manifest.outputSchema().toString()).contains("recursive reference");
        assertThat(ingestor.validator().problem(manifest)).isEmpty();
    }

    @Test
    void aDocumentWithMoreOperationsThanAllowedIsRefused() {
        OpenApiIngestor strict = new OpenApiIngestor(IngestionLimits.defaults().withMaxOperations(3),
                AddressPolicy.publicOnly());
        assertThatThrownBy(() -> strict.ingest(bytes(resource("petstore.yaml")), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("declares 7 operations, more than the limit of 3")
                .extracting(e -> ((IngestionException) e).reason())
                .isEqualTo(IngestionException.Reason.TOO_MANY_OPERATIONS);
    }

    @Test
    void anInvalidRegexPatternIsDroppedSoTheSchemaStaysUsable() throws Exception {
        String doc = """
                openapi: 3.0.0
                info: {title: Patterns, version: '1'}
                servers: [{url: 'https://patterns.example.com'}]
                paths:
                  /x:
                    get:
                      parameters:
                        - {name: code, in: query, schema: {type: string, pattern: '[a-z', maxLength: 10}}
                      responses: {'200': {description: ok}}
                """;
        CandidateTool tool = ingestor.ingest(bytes(doc), null, ToolSourceType.OPENAPI).candidates().get(0);
        JsonNode code = tool.manifest().inputSchema().path("properties").path("code");
        assertThat(code.has("pattern")).isFalse();
        assertThat(code.path("maxLength").asInt()).isEqualTo(10);
        assertThat(tool.warnings()).anyMatch(w -> w.contains("not a valid regular expression"));
    }

    private IngestedDocument ingest(String resource) throws Exception {
        return ingestor.ingest(bytes(resource(resource)), URI.create("https://pets.example.com/openapi.yaml"),
                ToolSourceType.OPENAPI);
    }

    private static Map<String, CandidateTool> byKey(IngestedDocument document) {
        return document.candidates().stream().collect(Collectors.toMap(CandidateTool::operationKey, Function.identity()));
    }

    private static Map<String, String> hashes(IngestedDocument document) {
        return document.candidates().stream().collect(Collectors.toMap(CandidateTool::operationKey,
                c -> c.manifest().contentHash()));
    }

    private static ParameterBinding parameter(ToolManifest manifest, String name) {
        return manifest.binding().parameters().stream().filter(p -> p.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no input " + name + " in " + manifest.binding().parameters()));
    }

    static String resource(String name) throws IOException {
        try (InputStream in = OpenApiIngestorTest.class.getResourceAsStream("/specs/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
