package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.SpecVersion;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.converter.SwaggerConverter;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Parses a self-contained document (external refs already inlined) with swagger-parser, converting
 * Swagger 2.0 to OpenAPI 3.0, and hands back the parsed model as a JSON tree that keeps its internal
 * {@code $ref}s. Reference resolution is left to the bounded resolvers of this module: swagger-parser's
 * "resolve fully" builds cyclic object graphs from recursive schemas and would fetch remote refs itself.
 */
final class OpenApiNormalizer {

    /**
     * The normalised document and what it was; {@code skipped} are operations taken out because the
     * parser failed on them.
     */
    record Normalized(JsonNode document, boolean openApi31, String dialect, List<String> messages,
            List<SkippedOperation> skipped) {
    }

    /** Parses one version of the document: swagger-parser may throw on input it does not expect. */
    private interface Parse {
        SwaggerParseResult apply(String json);
    }

    Normalized normalize(JsonNode tree, String what) throws IngestionException {
        if (!tree.isObject()) {
            throw new IngestionException(IngestionException.Reason.NOT_OPENAPI, what
                    + " is not an OpenAPI or Swagger document: its top level is not an object");
        }
        JsonNode openapi = tree.get("openapi");
        JsonNode swagger = tree.get("swagger");
        ParseOptions options = new ParseOptions();
        options.setResolve(false);
        options.setResolveFully(false);
        options.setValidateExternalRefs(false);
        Parse parse;
        String dialect;
        if (openapi != null) {
            String version = openapi.asText();
            if (!version.startsWith("3.")) {
                throw new IngestionException(IngestionException.Reason.NOT_OPENAPI, what + " declares openapi '"
                        + version + "'; only OpenAPI 3.x and Swagger 2.0 are supported");
            }
            dialect = "OpenAPI " + version;
            parse = json -> new OpenAPIV3Parser().readContents(json, null, options);
        } else if (swagger != null) {
            if (!"2.0".equals(swagger.asText())) {
                throw new IngestionException(IngestionException.Reason.NOT_OPENAPI, what + " declares swagger '"
                        + swagger.asText() + "'; only Swagger 2.0 and OpenAPI 3.x are supported");
            }
            dialect = "Swagger 2.0";
            parse = json -> new SwaggerConverter().readContents(json, null, options);
        } else {
            throw new IngestionException(IngestionException.Reason.NOT_OPENAPI, what
                    + " is not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' field");
        }
        List<SkippedOperation> skipped = List.of();
        Parsed parsed;
        try {
            parsed = parsed(parse, tree);
        } catch (RuntimeException | StackOverflowError e) {
            // the parser crashed (a NullPointerException on a nameless parameter, a null response…):
            // find the operations it crashes on, leave them out with the reason, and parse the rest
            ParserFailures isolated = ParserFailures.isolate(tree, json -> parsed(parse, json), what, dialect, e);
            skipped = isolated.skipped();
            parsed = isolated.parsed();
        }
        SwaggerParseResult result = parsed.result();
        List<String> messages = result.getMessages() == null ? List.of() : List.copyOf(result.getMessages());
        OpenAPI model = result.getOpenAPI();
        if (model == null) {
            throw new IngestionException(IngestionException.Reason.INVALID_OPENAPI, what + " is not a valid "
                    + dialect + " document: " + summary(messages));
        }
        if (model.getPaths() == null || model.getPaths().isEmpty()) {
            throw new IngestionException(IngestionException.Reason.NO_TOOLS, what + " (" + dialect
                    + ") defines no paths, so it offers no operations"
                    + (messages.isEmpty() ? "" : "; parser said: " + summary(messages)));
        }
        return new Normalized(parsed.document(), model.getSpecVersion() == SpecVersion.V31, dialect, messages,
                skipped);
    }

    /** What one parse gave: the parser's result and, when it has a model, that model as a JSON tree. */
    record Parsed(SwaggerParseResult result, JsonNode document) {
    }

    /** Parses {@code tree} and turns the model into JSON; both steps run the parser's code and may throw. */
    private static Parsed parsed(Parse parse, JsonNode tree) {
        SwaggerParseResult result = parse.apply(tree.toString());
        OpenAPI model = result.getOpenAPI();
        if (model == null) {
            return new Parsed(result, null);
        }
        boolean v31 = model.getSpecVersion() == SpecVersion.V31;
        return new Parsed(result, v31 ? Json31.mapper().valueToTree(model) : Json.mapper().valueToTree(model));
    }

    private static String summary(List<String> messages) {
        if (messages.isEmpty()) {
            return "the parser gave no details";
        }
        return messages.stream().limit(3).collect(Collectors.joining("; "))
                + (messages.size() > 3 ? " (and " + (messages.size() - 3) + " more)" : "");
    }
}
