package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * External {@code $ref}s that could not be resolved are left in the bundled document as marker objects
 * ({@link ExternalRefBundler}). This class takes out every operation that depends on one, directly or
 * through the document's own {@code #/...} references, and reports it as skipped with the reason; the
 * markers left in unused places are then neutralised so the parser sees an ordinary document. An admin
 * thus still gets every operation that does not need the missing piece.
 */
final class BrokenReferences {

    static final String MARKER = "x-toolsmith-unresolved-ref";
    static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");
    /** Maps of named components whose entries are referenced by name: a broken entry is removed whole. */
    private static final Set<String> COMPONENT_MAPS = Set.of("definitions", "parameters", "responses",
            "securityDefinitions", "schemas", "requestBodies", "headers", "examples", "links", "callbacks",
            "securitySchemes", "pathItems");

    private BrokenReferences() {
    }

    static ObjectNode marker(String reason) {
        return JsonNodeFactory.instance.objectNode().put(MARKER, reason);
    }

    /**
     * Removes from {@code root} (in place) every operation that depends on a marker and returns those
     * operations with their reasons. Fails when no operation is left, with the first reason.
     */
    static List<SkippedOperation> prune(JsonNode root, List<String> unresolved) throws IngestionException {
        List<SkippedOperation> skipped = new ArrayList<>();
        JsonNode paths = root.path("paths");
        int remaining = 0;
        if (paths instanceof ObjectNode pathMap) {
            Iterator<Map.Entry<String, JsonNode>> entries = pathMap.fields();
            while (entries.hasNext()) {
                Map.Entry<String, JsonNode> entry = entries.next();
                String path = entry.getKey();
                JsonNode item = entry.getValue();
                if (item.has(MARKER) || !(item instanceof ObjectNode itemObject)) {
                    skipped.add(new SkippedOperation("* " + path, "every operation of this path: " + (item.has(MARKER)
                            ? "its external $ref cannot be resolved: " + item.get(MARKER).asText()
                            : "the path item is not an object")));
                    entries.remove();
                    continue;
                }
                Optional<String> shared = reasonAt(item.get("parameters"), root, true);
                for (String method : METHODS) {
                    JsonNode operation = item.get(method);
                    if (operation == null || !operation.isObject()) {
                        continue;
                    }
                    Optional<String> reason = shared.or(() -> reasonAt(operation, root, true));
                    if (reason.isPresent()) {
                        skipped.add(new SkippedOperation(method.toUpperCase(Locale.ROOT) + " " + path,
                                "depends on an external $ref that cannot be resolved: " + reason.get()));
                        itemObject.remove(method);
                    } else {
                        remaining++;
                    }
                }
                if (METHODS.stream().noneMatch(itemObject::has)) {
                    entries.remove();
                }
            }
        }
        if (remaining == 0) {
            throw new IngestionException(IngestionException.Reason.BAD_REFERENCE, unresolved.isEmpty()
                    ? "no operation is left once those depending on unresolvable references are skipped"
                    : unresolved.get(0) + (unresolved.size() > 1 ? " (and " + (unresolved.size() - 1)
                            + " more unresolvable references)" : "")
                            + "; no operation of the document can be imported without it");
        }
        neutralise(root);
        return skipped;
    }

    /** The reason of the first marker reachable from {@code node}, following internal references if asked. */
    private static Optional<String> reasonAt(JsonNode node, JsonNode root, boolean followRefs) {
        if (node == null) {
            return Optional.empty();
        }
        Deque<JsonNode> toVisit = new ArrayDeque<>();
        Set<String> followed = new HashSet<>();
        toVisit.push(node);
        while (!toVisit.isEmpty()) {
            JsonNode current = toVisit.pop();
            if (current instanceof ObjectNode object) {
                JsonNode marker = object.get(MARKER);
                if (marker != null) {
                    return Optional.of(marker.asText());
                }
                JsonNode ref = object.get("$ref");
                if (followRefs && ref != null && ref.isTextual() && ref.asText().startsWith("#")
                        && followed.add(ref.asText())) {
                    JsonNode target = lookup(root, ref.asText());
                    if (!target.isMissingNode()) {
                        toVisit.push(target);
                    }
                }
                object.fields().forEachRemaining(field -> {
                    if (!ExternalRefBundler.isLiteralValue(field.getKey())) {
                        toVisit.push(field.getValue());
                    }
                });
            } else if (current instanceof ArrayNode array) {
                array.forEach(toVisit::push);
            }
        }
        return Optional.empty();
    }

    private static JsonNode lookup(JsonNode root, String ref) {
        String pointer = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        return pointer.isEmpty() ? root : root.at(pointer);
    }

    /**
     * Markers no remaining operation uses: a named component that is one is removed; one nested in a
     * schema becomes an open schema that says why.
     */
    private static void neutralise(JsonNode node) {
        if (node instanceof ObjectNode object) {
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            List<String> drop = new ArrayList<>();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode value = field.getValue();
                if (COMPONENT_MAPS.contains(field.getKey()) && value instanceof ObjectNode components) {
                    components.fields().forEachRemaining(c -> {
                        if (c.getValue().has(MARKER)) {
                            drop.add(field.getKey() + "\u0000" + c.getKey());
                        }
                    });
                }
                if (value.has(MARKER)) {
                    field.setValue(JsonNodeFactory.instance.objectNode().put("description",
                            "not available: " + value.get(MARKER).asText()));
                } else {
                    neutralise(value);
                }
            }
            for (String entry : drop) {
                String[] parts = entry.split("\u0000", 2);
                ((ObjectNode) object.get(parts[0])).remove(parts[1]);
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.get(i).has(MARKER)) {
                    array.set(i, JsonNodeFactory.instance.objectNode().put("description",
                            "not available: " + array.get(i).get(MARKER).asText()));
                } else {
                    neutralise(array.get(i));
                }
            }
        }
    }
}
