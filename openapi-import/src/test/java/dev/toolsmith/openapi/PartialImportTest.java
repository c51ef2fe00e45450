package dev.toolsmith.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A document is imported operation by operation: what one operation breaks (a parser crash, an external
 * {@code $ref} that cannot be resolved) costs that operation, listed as skipped with the reason, and the
 * rest are still imported.
 */
class PartialImportTest {

    private final OpenApiIngestor ingestor = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());

    /** swagger-parser throws on a formData file parameter without a name (a null key in its model). */
    private static final String NAMELESS_FILE_PARAMETER = """
            swagger: '2.0'
            info: {title: Uploads, version: '1'}
            host: uploads.example.com
            schemes: [https]
            paths:
              /photos:
                post:
                  operationId: uploadPhoto
                  consumes: [multipart/form-data]
                  parameters:
                    - {name: photo, in: formData, type: file, required: true}
                    - {name: caption, in: formData, type: string}
                  responses: {'200': {description: stored}}
              /broken:
                post:
                  operationId: uploadBroken
                  consumes: [multipart/form-data]
                  parameters:
                    - {in: formData, type: file}
                  responses: {'200': {description: stored}}
              /albums:
                get:
                  operationId: listAlbums
                  responses: {'200': {description: albums, schema: {type: array, items: {type: string}}}}
            """;

    @Test
    void aParserCrashOnAFileParameterSkipsOnlyThatOperation() throws Exception {
        IngestedDocument document = ingestor.ingest(NAMELESS_FILE_PARAMETER.getBytes(StandardCharsets.UTF_8), null,
                ToolSourceType.OPENAPI);

        assertThat(byKey(document)).containsOnlyKeys("POST /photos", "GET /albums");
        assertThat(document.operationCount()).isEqualTo(3);
        assertThat(document.skipped()).singleElement().satisfies(skipped -> {
            assertThat(skipped.operationKey()).isEqualTo("POST /broken");
            assertThat(skipped.reason()).contains("Swagger 2.0 parser failed on this operation")
                    .contains("Null key");
        });
        // the well-formed file parameter converts: a binary string sent in the form body, with a warning
        // for the reviewer that the form is sent urlencoded (the binding has no multipart encoding)
        JsonNode photo = byKey(document).get("POST /photos").manifest().inputSchema().path("properties").path("photo");
        assertThat(photo.path("type").asText()).isEqualTo("string");
        assertThat(photo.path("format").asText()).isEqualTo("binary");
        assertThat(byKey(document).get("POST /photos").warnings())
                .anyMatch(w -> w.contains("multipart/form-data body with a file") && w.contains("urlencoded"));
    }

    @Test
    void aNullResponseThatCrashesTheParserCostsOnlyItsOperation() throws Exception {
        String doc = """
                swagger: '2.0'
                info: {title: Nulls, version: '1'}
                host: nulls.example.com
                paths:
                  /a:
                    get:
                      responses: {'200': null}
                  /b:
                    get:
                      responses: {'200': {description: ok}}
                """;
        IngestedDocument document = ingestor.ingest(doc.getBytes(StandardCharsets.UTF_8), null, ToolSourceType.OPENAPI);

        assertThat(byKey(document)).containsOnlyKeys("GET /b");
        assertThat(document.skipped()).singleElement().satisfies(skipped -> {
            assertThat(skipped.operationKey()).isEqualTo("GET /a");
            assertThat(skipped.reason()).contains("NullPointerException");
        });
    }

    @Test
    void aDocumentTheParserCrashesOnEverywhereIsRefusedWithTheReasonNotAnException() {
        String doc = """
                swagger: '2.0'
                info: {title: Nulls, version: '1'}
                host: nulls.example.com
                paths:
                  /a:
                    get:
                      responses: {'200': null}
                """;
        assertThatThrownBy(() -> ingestor.ingest(doc.getBytes(StandardCharsets.UTF_8), null, ToolSourceType.OPENAPI))
                .isInstanceOf(IngestionException.class)
                .hasMessageContaining("parser failed on every operation")
                .hasMessageContaining("NullPointerException");
    }

    @Test
    void operationsThatDoNotNeedAnUnresolvableExternalRefAreStillImported(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("common.yaml"), """
                Pet: {type: object, properties: {name: {type: string}}}
                """);
        Path root = dir.resolve("openapi.yaml");
        Files.writeString(root, """
                openapi: 3.0.3
                info: {title: Half There, version: '1'}
                servers: [{url: 'https://half.example.com'}]
                paths:
                  /pets:
                    get:
                      operationId: listPets
                      responses:
                        '200':
                          description: pets
                          content:
                            application/json:
                              schema: {type: array, items: {$ref: 'common.yaml#/Pet'}}
                  /owners:
                    get:
                      operationId: listOwners
                      responses:
                        '200':
                          description: owners
                          content:
                            application/json:
                              schema: {$ref: '#/components/schemas/Owner'}
                  /owners/{id}:
                    parameters:
                      - {$ref: '#/components/parameters/Region'}
                    get:
                      operationId: getOwner
                      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                      responses: {'200': {description: owner}}
                  /vets:
                    $ref: 'vets.yaml#/paths/~1vets'
                components:
                  parameters:
                    Region: {$ref: 'missing.yaml#/Region'}
                  schemas:
                    Owner:
                      type: object
                      properties:
                        address: {$ref: 'missing.yaml#/Address'}
                """);

        IngestedDocument document = ingestor.ingest(Files.readAllBytes(root), root.toUri(), ToolSourceType.OPENAPI);

        assertThat(byKey(document)).containsOnlyKeys("GET /pets");
        assertThat(byKey(document).get("GET /pets").manifest().outputSchema().toString()).contains("name");
        Map<String, String> skipped = document.skipped().stream()
                .collect(Collectors.toMap(SkippedOperation::operationKey, SkippedOperation::reason));
        assertThat(skipped).containsOnlyKeys("GET /owners", "GET /owners/{id}", "* /vets");
        assertThat(skipped.get("GET /owners")).contains("external $ref").contains("missing.yaml")
                .contains("cannot be read");
        assertThat(skipped.get("GET /owners/{id}")).contains("missing.yaml");
        assertThat(skipped.get("* /vets")).contains("vets.yaml");
        assertThat(document.operationCount()).isEqualTo(4);
    }

    private static Map<String, CandidateTool> byKey(IngestedDocument document) {
        return document.candidates().stream().collect(Collectors.toMap(CandidateTool::operationKey,
                Function.identity()));
    }
}
