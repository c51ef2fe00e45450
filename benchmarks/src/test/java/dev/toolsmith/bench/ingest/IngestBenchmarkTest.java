package dev.toolsmith.bench.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ingest benchmark reports every document's failure and keeps going. */
class IngestBenchmarkTest {

    static final String GOOD = """
            openapi: 3.0.3
            info: {title: Good, version: '1'}
            servers: [{url: 'https://good.example.com'}]
            paths:
              /things:
                get:
                  operationId: listThings
                  responses: {'200': {description: ok}}
            """;

    /** Two good operations and one swagger-parser throws on (a formData file parameter without a name). */
    static final String PARSER_CRASH = """
            swagger: '2.0'
            info: {title: Uploads, version: '1'}
            host: uploads.example.com
            schemes: [https]
            paths:
              /photos:
                post:
                  operationId: uploadPhoto
                  consumes: [multipart/form-data]
                  parameters: [{name: photo, in: formData, type: file, required: true}]
                  responses: {'200': {description: stored}}
              /broken:
                post:
                  consumes: [multipart/form-data]
                  parameters: [{in: formData, type: file}]
                  responses: {'200': {description: stored}}
              /albums:
                get:
                  responses: {'200': {description: albums}}
            """;

    /** Writes the documents of the benchmark tests: good, partly broken, not UTF-8, not OpenAPI. */
    static void writeDocuments(Path dir) throws Exception {
        Files.writeString(dir.resolve("a-good.yaml"), GOOD);
        Files.writeString(dir.resolve("b-parser-crash.yaml"), PARSER_CRASH);
        Files.write(dir.resolve("c-binary.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, (byte) 0xc3});
        Files.writeString(dir.resolve("d-not-openapi.json"), "{\"hello\": \"world\"}");
    }

    @Test
    void everyDocumentIsReportedAndAPartlyBrokenOneStillGivesItsTools(@TempDir Path dir) throws Exception {
        writeDocuments(dir);
        ObjectMapper mapper = ContractCodec.defaultMapper();
        Path details = dir.resolve("details.json");

        ObjectNode summary = IngestBenchmark.run(dir, details, mapper);

        assertThat(summary.path("documents").asInt()).isEqualTo(4);
        assertThat(summary.path("ingested").asInt()).isEqualTo(2);
        assertThat(summary.path("tools").asInt()).isEqualTo(3);
        List<String> rejected = new ArrayList<>();
        summary.path("rejected").forEach(r -> rejected.add(r.path("file").asText() + ": " + r.path("reason").asText()));
        assertThat(rejected).hasSize(2);
        assertThat(rejected.get(0)).startsWith("c-binary.yaml: ").contains("not UTF-8");
        assertThat(rejected.get(1)).startsWith("d-not-openapi.json: ").contains("not an OpenAPI or Swagger document");
        assertThat(summary.path("skipped_operations").asInt()).isEqualTo(1);
        JsonNode partial = summary.path("partial");
        assertThat(partial).hasSize(1);
        assertThat(partial.get(0).path("file").asText()).isEqualTo("b-parser-crash.yaml");
        assertThat(partial.get(0).path("first").asText()).startsWith("POST /broken: ")
                .contains("parser failed on this operation");
        assertThat(Files.readString(details)).contains("POST /broken");
    }
}
