package dev.toolsmith.capabilities.step;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the NUL character (U+0000) in a plan step as it arrived. PostgreSQL cannot store it in text or jsonb,
 * so a step holding one would fail on its first write with a raw database error; found first, the planner is
 * told which field holds it.
 */
final class NulCharacters {

    private NulCharacters() {
    }

    /** The JSON pointer of the first string or field name under {@code node} that contains a NUL. */
    static Optional<String> firstIn(JsonNode node, String at) {
        if (node == null) {
            return Optional.empty();
        }
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0 ? Optional.of(at) : Optional.empty();
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                Optional<String> found = firstIn(node.get(i), at + "/" + i);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = field.getKey();
                String pointer = at + "/" + name.replace("\0", "\\u0000").replace("~", "~0").replace("/", "~1");
                if (name.indexOf('\0') >= 0) {
                    return Optional.of(pointer);
                }
                Optional<String> found = firstIn(field.getValue(), pointer);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }
}
