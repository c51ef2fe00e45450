package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Inlines every external {@code $ref} of a document so that swagger-parser, which would fetch them
 * with its own unguarded client, only ever sees a self-contained document. Each external document is
 * loaded once through a {@link RefLoader} (the guarded fetcher for http(s)); references inside it
 * (including its own {@code #/...} ones) are inlined in turn. Recursion through external documents is
 * cut where it repeats, and the number of external documents is bounded. A reference that cannot be
 * resolved (unreachable, refused, or pointing at nothing) does not fail the document: it is replaced by
 * an {@link BrokenReferences#MARKER} object that says why, so the operations that do not depend on it
 * can still be imported ({@link BrokenReferences} finds and skips the ones that do).
 */
final class ExternalRefBundler {

    /** Loads the external document at an absolute URI (no fragment). */
    interface RefLoader {
        JsonNode load(URI document) throws IngestionException;
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final RefLoader loader;
    private final int maxDocuments;
    private final int maxDepth;
    private final Map<URI, JsonNode> loaded = new HashMap<>();
    private final Deque<String> expanding = new ArrayDeque<>();
    private final List<String> unresolved = new java.util.ArrayList<>();

    ExternalRefBundler(RefLoader loader, int maxDocuments, int maxDepth) {
        this.loader = loader;
        this.maxDocuments = maxDocuments;
        this.maxDepth = maxDepth;
    }

    /** Rewrites {@code root} (loaded from {@code rootUri}, which may be null) in place; returns it. */
    JsonNode bundle(JsonNode root, URI rootUri) throws IngestionException {
        URI rootDocument = rootUri == null ? null : withoutFragment(rootUri);
        return walk(root, rootDocument, rootDocument, true);
    }

    int externalDocuments() {
        return loaded.size();
    }

    /** Why each reference that could not be resolved was left out, in the order met. */
    List<String> unresolved() {
        return List.copyOf(unresolved);
    }

    /**
     * Walks {@code node} found in document {@code base}. Inside the root document, {@code #...} refs stay
     * as they are; inside an external document they point into that document and are inlined.
     */
    private JsonNode walk(JsonNode node, URI base, URI rootDocument, boolean inRoot) throws IngestionException {
        if (node instanceof ObjectNode object) {
            JsonNode ref = object.get("$ref");
            if (ref != null && ref.isTextual()) {
                String text = ref.asText().trim();
                if (text.startsWith("#") && inRoot) {
                    return object;
                }
                try {
                    return inline(text, base, rootDocument);
                } catch (IngestionException e) {
                    unresolved.add(e.getMessage());
                    return BrokenReferences.marker(e.getMessage());
                }
            }
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                if (isLiteralValue(field.getKey())) {
                    continue;
                }
                JsonNode replaced = walk(field.getValue(), base, rootDocument, inRoot);
                if (replaced != field.getValue()) {
                    field.setValue(replaced);
                }
            }
            return object;
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode replaced = walk(array.get(i), base, rootDocument, inRoot);
                if (replaced != array.get(i)) {
                    array.set(i, replaced);
                }
            }
        }
        return node;
    }

    private JsonNode inline(String ref, URI base, URI rootDocument) throws IngestionException {
        URI target = absolute(ref, base);
        URI document = withoutFragment(target);
        String pointer = target.getRawFragment() == null ? "" : decode(target.getRawFragment());
        if (document.equals(rootDocument)) {
            // a reference back into the root document: keep it internal for swagger-parser to see
            return NODES.objectNode().put("$ref", "#" + pointer);
        }
        String key = document + "#" + pointer;
        if (expanding.contains(key) || expanding.size() >= maxDepth) {
            return NODES.objectNode().put("description", "recursive reference to " + key + " (not expanded further)");
        }
        JsonNode content = load(document);
        JsonNode at = pointer.isEmpty() ? content : content.at(pointer);
        if (at.isMissingNode()) {
            throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "$ref '" + ref + "': " + document
                    + " has nothing at '" + pointer + "'");
        }
        expanding.push(key);
        try {
            return walk(at.deepCopy(), document, rootDocument, false);
        } finally {
            expanding.pop();
        }
    }

    private JsonNode load(URI document) throws IngestionException {
        JsonNode cached = loaded.get(document);
        if (cached != null) {
            return cached;
        }
        if (loaded.size() >= maxDocuments) {
            throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "the document references more than "
                    + maxDocuments + " external documents");
        }
        JsonNode content = loader.load(document);
        loaded.put(document, content);
        return content;
    }

    private static URI absolute(String ref, URI base) throws IngestionException {
        URI uri;
        try {
            uri = new URI(ref.replace(" ", "%20"));
        } catch (URISyntaxException e) {
            throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "$ref '" + ref
                    + "' is not a valid URI reference");
        }
        if (uri.isAbsolute()) {
            return uri;
        }
        if (base == null) {
            throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "$ref '" + ref
                    + "' is relative, but the document has no location to resolve it against");
        }
        return base.resolve(uri);
    }

    private static URI withoutFragment(URI uri) throws IngestionException {
        try {
            return new URI(uri.getScheme(), uri.getSchemeSpecificPart(), null);
        } catch (URISyntaxException e) {
            throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, "invalid reference " + uri);
        }
    }

    private static String decode(String fragment) {
        return java.net.URLDecoder.decode(fragment.replace("+", "%2B"), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Values of these keys are data (examples, defaults), not schema: a "$ref" key there is not a reference. */
    static boolean isLiteralValue(String key) {
        return LITERAL_KEYS.contains(key);
    }

    private static final List<String> LITERAL_KEYS = List.of("example", "examples", "default", "enum", "const",
            "x-example", "x-examples");
}
