package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractValidator;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import dev.toolsmith.openapi.fetch.FetchException;
import dev.toolsmith.openapi.fetch.FetchedDocument;
import dev.toolsmith.openapi.fetch.GuardedFetcher;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The one entry point for turning an OpenAPI 3.x or Swagger 2.0 document into candidate tools, used by
 * the librarian's scans and the engineer's benchmark alike. A document is read under limits (size,
 * YAML aliases, nesting), its external {@code $ref}s are inlined through the guarded fetcher, it is
 * parsed (and converted from 2.0) by swagger-parser, and each operation becomes a {@link CandidateTool}
 * whose manifest is validated and content-hashed, or a {@link SkippedOperation} saying why not. A
 * document as a whole fails with an {@link IngestionException} whose message a person can act on.
 * Thread-safe; reuse one instance.
 */
public final class OpenApiIngestor {

    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch",
            "trace");
    private static final int MAX_DESCRIPTION = 8192;

    private final IngestionLimits limits;
    private final GuardedFetcher fetcher;
    private final DocumentReader reader;
    private final CandidateValidator validator;
    private final ObjectMapper mapper;

    public OpenApiIngestor(IngestionLimits limits, AddressPolicy policy) {
        this(limits, new GuardedFetcher(limits.fetch(), policy));
    }

    public OpenApiIngestor(IngestionLimits limits, GuardedFetcher fetcher) {
        this.limits = limits;
        this.fetcher = fetcher;
        this.reader = new DocumentReader(limits);
        this.mapper = ContractCodec.defaultMapper();
        this.validator = new CandidateValidator(new ContractValidator(), mapper);
    }

    public IngestionLimits limits() {
        return limits;
    }

    public GuardedFetcher fetcher() {
        return fetcher;
    }

    public CandidateValidator validator() {
        return validator;
    }

    /** Fetches the document at {@code url} through the guarded fetcher and ingests it. */
    public IngestedDocument ingest(URI url, ToolSourceType source) throws IngestionException {
        FetchedDocument fetched;
        try {
            fetched = fetcher.fetch(url);
        } catch (FetchException e) {
            throw new IngestionException(IngestionException.Reason.FETCH_FAILED, e.getMessage(), e);
        }
        return ingest(fetched.body(), fetched.location(), source);
    }

    /**
     * Ingests a document's bytes. {@code location} (may be null) is where it came from: relative server
     * URLs and {@code $ref}s resolve against it; for a {@code file:} location, relative {@code $ref}s may
     * read files in the same directory tree.
     */
    public IngestedDocument ingest(byte[] content, URI location, ToolSourceType source) throws IngestionException {
        String what = location == null ? "the document" : "the document at " + location;
        try {
            return ingestTree(reader.read(content, what), location, what, source);
        } catch (RuntimeException | StackOverflowError e) {
            // a defect met on this document must cost only this document, with a reason, never the caller
            throw new IngestionException(IngestionException.Reason.INVALID_OPENAPI, what
                    + " cannot be imported: conversion failed with " + ParserFailures.describe(e), e);
        }
    }

    private IngestedDocument ingestTree(JsonNode tree, URI location, String what, ToolSourceType source)
            throws IngestionException {
        if (!tree.isObject() || (!tree.has("openapi") && !tree.has("swagger"))) {
            throw new IngestionException(IngestionException.Reason.NOT_OPENAPI, what
                    + " is not an OpenAPI or Swagger document: it has no top-level 'openapi' or 'swagger' field");
        }
        ExternalRefBundler bundler = new ExternalRefBundler(target -> loadReference(target, location),
                limits.maxExternalDocuments(), limits.maxRefDepth());
        bundler.bundle(tree, location);
        List<SkippedOperation> skipped = new ArrayList<>();
        if (!bundler.unresolved().isEmpty()) {
            skipped.addAll(BrokenReferences.prune(tree, bundler.unresolved()));
        }
        OpenApiNormalizer.Normalized normalized = new OpenApiNormalizer().normalize(tree, what);
        skipped.addAll(normalized.skipped());
        return convert(normalized, location, source == null ? ToolSourceType.OPENAPI : source, skipped);
    }

    /** Reads a JSON or YAML document (a manifest, an index) under the same limits, without converting it. */
    public JsonNode readTree(byte[] content, String what) throws IngestionException {
        return reader.read(content, what);
    }

    private JsonNode loadReference(URI target, URI rootLocation) throws IngestionException {
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("http") || scheme.equals("https")) {
            try {
                FetchedDocument fetched = fetcher.fetch(target);
                return reader.read(fetched.body(), "the document at " + target + " (an external $ref)");
            } catch (FetchException e) {
                throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "external $ref " + target
                        + " cannot be resolved: " + e.getMessage(), e);
            }
        }
        if (scheme.equals("file") && rootLocation != null && "file".equalsIgnoreCase(rootLocation.getScheme())) {
            Path root = Path.of(rootLocation).toAbsolutePath().normalize().getParent();
            Path file = Path.of(target).toAbsolutePath().normalize();
            if (root != null && file.startsWith(root)) {
                try {
                    if (Files.size(file) > limits.fetch().maxBytes()) {
                        throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "external $ref " + file
                                + " is larger than the limit of " + limits.fetch().maxBytes() + " bytes");
                    }
                    return reader.read(Files.readAllBytes(file), "the file " + file + " (an external $ref)");
                } catch (IOException e) {
                    throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "external $ref " + file
                            + " cannot be read: " + e.getMessage(), e);
                }
            }
        }
        throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "external $ref " + target
                + " is not allowed: only http(s) references (and, for a local file, files beside it) are resolved");
    }

    /** {@code alreadySkipped}: operations taken out before parsing (broken references, parser crashes). */
    private IngestedDocument convert(OpenApiNormalizer.Normalized normalized, URI location, ToolSourceType source,
            List<SkippedOperation> alreadySkipped) throws IngestionException {
        JsonNode document = normalized.document();
        List<Operation> operations = operations(document);
        int declared = operations.size() + alreadySkipped.size();
        if (declared > limits.maxOperations()) {
            throw new IngestionException(IngestionException.Reason.TOO_MANY_OPERATIONS, "the document declares "
                    + declared + " operations, more than the limit of " + limits.maxOperations());
        }
        Dereferencer refs = new Dereferencer(document);
        SchemaTranslator schemas = new SchemaTranslator(refs, limits.maxRefDepth(), limits.maxSchemaNodes());
        ServerResolver servers = new ServerResolver(document, location);
        OperationConverter converter = new OperationConverter(refs, schemas, servers, new AuthResolver(document, refs),
                limits.maxSchemaNodes());
        JsonNode info = document.path("info");
        String title = info.path("title").asText("").trim();
        String namespace = namespace(document, servers, title);
        String domain = domain(info);
        ToolNaming naming = new ToolNaming();

        List<Draft> drafts = new ArrayList<>();
        List<SkippedOperation> skipped = new ArrayList<>(alreadySkipped);
        for (Operation op : operations) {
            if (op.method.equals("trace")) {
                skipped.add(new SkippedOperation(op.key(), "TRACE operations are not offered as tools"));
                continue;
            }
            Set<String> warnings = new LinkedHashSet<>();
            try {
                OperationConverter.Converted converted = converter.convert(op.method, op.path, op.pathItem,
                        op.operation, warnings);
                drafts.add(new Draft(op, converted, warnings));
            } catch (OperationConverter.NotConvertible e) {
                skipped.add(new SkippedOperation(op.key(), e.getMessage()));
            } catch (RuntimeException | StackOverflowError e) {
                skipped.add(new SkippedOperation(op.key(), "cannot be converted: " + ParserFailures.describe(e)));
            }
        }
        Optional<Draft> probeSource = drafts.stream()
                .filter(d -> d.op.method.equals("get") && !d.converted.hasRequiredInputs())
                .min(Comparator.comparingInt((Draft d) -> d.op.path.length()));

        List<CandidateTool> candidates = new ArrayList<>();
        for (Draft draft : drafts) {
            Operation op = draft.op;
            try {
                String operationId = op.operation.path("operationId").asText(null);
                String verb = naming.verb(operationId, op.method, op.path);
                String name = naming.name(verb);
                HealthProbe probe = healthProbe(draft, probeSource);
                ToolManifest manifest = new ToolManifest(ToolNaming.id(namespace, name), verb, name,
                        description(op, title), source, namespace, domain, tags(op.operation),
                        draft.converted.inputSchema(), draft.converted.outputSchema(), draft.converted.risk(),
                        draft.converted.binding(), probe, 0, null);
                manifest = manifest.withVersion(0, ContentHash.of(manifest, mapper));
                Optional<String> problem = validator.problem(manifest);
                if (problem.isPresent()) {
                    skipped.add(new SkippedOperation(op.key(), problem.get()));
                    continue;
                }
                candidates.add(new CandidateTool(op.key(), operationId, manifest, draft.converted.operation(),
                        List.copyOf(draft.warnings)));
            } catch (RuntimeException | StackOverflowError e) {
                skipped.add(new SkippedOperation(op.key(), "cannot become a tool: " + ParserFailures.describe(e)));
            }
        }
        if (candidates.isEmpty()) {
            String why = skipped.isEmpty() ? "it has no operations"
                    : skipped.stream().map(SkippedOperation::reason).distinct().limit(2)
                            .reduce((a, b) -> a + "; " + b).orElse("");
            throw new IngestionException(IngestionException.Reason.NO_TOOLS, "no operation of the document ("
                    + normalized.dialect() + ", " + declared + " operations) can become a tool: " + why);
        }
        JsonNode schemes = document.path("components").path("securitySchemes");
        return new IngestedDocument(location, normalized.dialect(), title, info.path("version").asText(null),
                namespace, document.has("servers") ? document.get("servers") : JsonNodeFactory.instance.arrayNode(),
                schemes.isObject() ? refs.inlined(schemes, limits.maxSchemaNodes()) : JsonNodeFactory.instance.objectNode(),
                declared, candidates, skipped, normalized.messages());
    }

    private record Operation(String method, String path, JsonNode pathItem, JsonNode operation) {
        String key() {
            return method.toUpperCase(Locale.ROOT) + " " + path;
        }
    }

    private record Draft(Operation op, OperationConverter.Converted converted, Set<String> warnings) {
    }

    private static List<Operation> operations(JsonNode document) {
        List<Operation> operations = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> paths = document.path("paths").fields();
        while (paths.hasNext()) {
            Map.Entry<String, JsonNode> path = paths.next();
            JsonNode item = path.getValue();
            for (String method : METHODS) {
                JsonNode operation = item.get(method);
                if (operation != null && operation.isObject()) {
                    operations.add(new Operation(method, path.getKey(), item, operation));
                }
            }
        }
        return operations;
    }

    private static HealthProbe healthProbe(Draft draft, Optional<Draft> probeSource) {
        if (probeSource.isEmpty()) {
            return HealthProbe.unavailable("the API offers no GET operation without required inputs to probe safely");
        }
        Draft probe = draft.op.method.equals("get") && !draft.converted.hasRequiredInputs() ? draft : probeSource.get();
        return new HealthProbe(probe.converted.binding(), Map.of(), 0, null);
    }

    private static String description(Operation op, String title) {
        String summary = op.operation.path("summary").asText("").trim();
        String details = op.operation.path("description").asText("").trim();
        String text = summary.isEmpty() ? details
                : details.isEmpty() || details.equals(summary) ? summary : summary + "\n\n" + details;
        if (text.isEmpty()) {
            text = op.key() + (title.isEmpty() ? "" : " (" + title + ")");
        }
        return text.length() > MAX_DESCRIPTION ? text.substring(0, MAX_DESCRIPTION - 1) + "…" : text;
    }

    private static List<String> tags(JsonNode operation) {
        List<String> tags = new ArrayList<>();
        operation.path("tags").forEach(tag -> {
            String text = tag.asText("").trim();
            if (!text.isEmpty() && tags.size() < 50) {
                tags.add(text.length() > 100 ? text.substring(0, 100) : text);
            }
        });
        return tags;
    }

    /** The API provider: the directory's provider name, else the server's host, else the title. */
    private static String namespace(JsonNode document, ServerResolver servers, String title) {
        String provider = document.path("info").path("x-providerName").asText("").trim();
        if (provider.isEmpty()) {
            provider = servers.serverUrl(JsonNodeFactory.instance.objectNode(), JsonNodeFactory.instance.objectNode())
                    .map(url -> URI.create(url).getHost()).orElse("");
        }
        if (provider.isEmpty()) {
            provider = ToolNaming.slug(title);
        }
        if (provider.isEmpty()) {
            provider = "api";
        }
        String service = document.path("info").path("x-serviceName").asText("").trim();
        String namespace = service.isEmpty() ? provider : provider + "/" + service;
        return namespace.length() > 200 ? namespace.substring(0, 200) : namespace;
    }

    private static String domain(JsonNode info) {
        JsonNode categories = info.path("x-apisguru-categories");
        if (categories.isArray() && !categories.isEmpty()) {
            String category = categories.get(0).asText("").trim();
            return category.isEmpty() ? null : category;
        }
        return null;
    }

    /** For callers that want to show a candidate's manifest as plain JSON. */
    public ObjectNode toJson(ToolManifest manifest) {
        return mapper.valueToTree(manifest);
    }
}
