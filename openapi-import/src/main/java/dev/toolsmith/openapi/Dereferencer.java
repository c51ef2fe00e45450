package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * Follows internal {@code #/...} references of one normalised document: for a parameter or a request
 * body, only the reference at hand; for the operation kept with each candidate, a bounded deep copy in
 * which recursion is cut at its first repetition.
 */
final class Dereferencer {

    private static final int MAX_HOPS = 16;

    private final JsonNode document;

    Dereferencer(JsonNode document) {
        this.document = document;
    }

    JsonNode document() {
        return document;
    }

    /** The node a {@code #/...} reference points to, or a missing node. */
    JsonNode lookup(String ref) {
        if (ref == null || !ref.startsWith("#")) {
            return MissingNode.getInstance();
        }
        String pointer = URLDecoder.decode(ref.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        return pointer.isEmpty() ? document : document.at(pointer);
    }

    static String refOf(JsonNode node) {
        JsonNode ref = node == null ? null : node.get("$ref");
        return ref != null && ref.isTextual() ? ref.asText() : null;
    }

    /** Follows references at the top of {@code node} until a non-reference; missing when dangling or looping. */
    JsonNode follow(JsonNode node) {
        JsonNode current = node;
        for (int hop = 0; hop < MAX_HOPS; hop++) {
            String ref = refOf(current);
            if (ref == null) {
                return current;
            }
            current = lookup(ref);
            if (current.isMissingNode()) {
                return current;
            }
        }
        return MissingNode.getInstance();
    }

    /** A copy of {@code node} with references inlined; cycles and overflow leave a short note instead. */
    JsonNode inlined(JsonNode node, int maxNodes) {
        int[] budget = {maxNodes};
        return inline(node, new ArrayDeque<>(), budget);
    }

    private JsonNode inline(JsonNode node, Deque<String> expanding, int[] budget) {
        budget[0]--;
        if (node instanceof ObjectNode object) {
            String ref = refOf(object);
            if (ref != null) {
                JsonNode target = lookup(ref);
                if (target.isMissingNode() || expanding.contains(ref) || budget[0] <= 0) {
                    return object.deepCopy();
                }
                expanding.push(ref);
                try {
                    return inline(target, expanding, budget);
                } finally {
                    expanding.pop();
                }
            }
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                boolean literal = field.getKey().equals("example") || field.getKey().equals("default")
                        || field.getKey().equals("enum") || field.getKey().equals("const");
                copy.set(field.getKey(), literal ? field.getValue().deepCopy()
                        : inline(field.getValue(), expanding, budget));
            }
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            array.forEach(item -> copy.add(inline(item, expanding, budget)));
            return copy;
        }
        return node;
    }
}
