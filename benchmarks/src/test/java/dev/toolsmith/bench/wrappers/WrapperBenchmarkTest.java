package dev.toolsmith.bench.wrappers;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper benchmark goes through every document: one the parser throws on, one that is not text and
 * one that is not OpenAPI are listed as failed with their reasons, and the good tools are still built.
 */
class WrapperBenchmarkTest {

    private static final String GOOD = """
            openapi: 3.0.3
            info: {title: Good, version: '1'}
            servers: [{url: 'https://good.example.com'}]
            paths:
              /things:
                get:
                  operationId: listThings
                  parameters: [{name: q, in: query, schema: {type: string}}]
                  responses: {'200': {description: ok, content: {application/json: {schema: {type: object}}}}}
            """;

    /** A good upload and an operation swagger-parser throws on (a formData file parameter without a name). */
    private static final String PARSER_CRASH = """
            swagger: '2.0'
            info: {title: Uploads, version: '1'}
            host: uploads.example.com
            schemes: [https]
            paths:
              /albums:
                get:
                  operationId: listAlbums
                  produces: [application/json]
                  responses: {'200': {description: albums, schema: {type: object}}}
              /broken:
                post:
                  consumes: [multipart/form-data]
                  parameters: [{in: formData, type: file}]
                  responses: {'200': {description: stored}}
            """;

    @Test
    void aDocumentTheCodeCannotHandleIsReportedAndTheRunGoesOn(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a-parser-crash.yaml"), PARSER_CRASH);
        Files.write(dir.resolve("b-binary.yaml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, (byte) 0xc3});
        Files.writeString(dir.resolve("c-not-openapi.json"), "{\"hello\": \"world\"}");
        Files.writeString(dir.resolve("d-good.yaml"), GOOD);
        ObjectMapper mapper = ContractCodec.defaultMapper();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        ObjectNode summary = WrapperBenchmark.run(dir, null, mapper, new PrintStream(printed, true,
                StandardCharsets.UTF_8));

        assertThat(summary.path("documents").asInt()).isEqualTo(4);
        assertThat(summary.path("documents_failed").asInt()).isEqualTo(2);
        assertThat(summary.path("operations").asInt()).isEqualTo(3);
        assertThat(summary.path("verified").asInt()).as(summary.toPrettyString()).isEqualTo(2);
        Map<String, String> failed = new LinkedHashMap<>();
        summary.path("failed").forEach(f -> failed.put(f.path("tool").asText(), f.path("reason").asText()));
        assertThat(failed).containsOnlyKeys("a-parser-crash.yaml POST /broken", "b-binary.yaml",
                "c-not-openapi.json");
        assertThat(failed.get("a-parser-crash.yaml POST /broken")).startsWith("not ingested: ")
                .contains("parser failed on this operation");
        assertThat(failed.get("b-binary.yaml")).startsWith("document not ingested: ");
        assertThat(failed.get("c-not-openapi.json")).contains("not an OpenAPI or Swagger document");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("documents not ingested: 2");
    }
}
