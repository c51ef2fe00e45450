package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.List;

/**
 * The outcome of ingesting one document: a candidate per convertible operation, the operations that
 * were skipped with their reasons, and the document facts a reviewer (and the engineer) needs.
 *
 * @param location where the document was read from (after redirects), or null
 * @param dialect what it was, e.g. "Swagger 2.0" or "OpenAPI 3.0.1"
 * @param servers the servers of the (converted) document, as OpenAPI 3 JSON
 * @param securitySchemes its security schemes, dereferenced, as OpenAPI 3 JSON (an empty object if none)
 * @param operationCount every operation the document declares
 * @param parserMessages what swagger-parser reported (the document was still usable)
 */
public record IngestedDocument(
        URI location,
        String dialect,
        String title,
        String apiVersion,
        String namespace,
        JsonNode servers,
        JsonNode securitySchemes,
        int operationCount,
        List<CandidateTool> candidates,
        List<SkippedOperation> skipped,
        List<String> parserMessages) {

    public IngestedDocument {
        candidates = List.copyOf(candidates);
        skipped = List.copyOf(skipped);
        parserMessages = parserMessages == null ? List.of() : List.copyOf(parserMessages);
    }
}
