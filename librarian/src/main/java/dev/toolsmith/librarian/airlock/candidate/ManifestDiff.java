package dev.toolsmith.librarian.airlock.candidate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.TreeSet;

/**
 * What changed between two manifests, as a list of {@code {path, before, after}} at the deepest level
 * that differs (JSON Pointer paths; a missing side is absent). Version and content hash are not
 * content. At most {@value #MAX_CHANGES} entries, then one saying how many more.
 */
public final class ManifestDiff {

    static final int MAX_CHANGES = 200;

    private ManifestDiff() {
    }

    public static ArrayNode between(JsonNode before, JsonNode after) {
        ArrayNode changes = JsonNodeFactory.instance.arrayNode();
        int[] extra = {0};
        walk("", strip(before), strip(after), changes, extra);
        if (extra[0] > 0) {
            changes.addObject().put("path", "").put("note", extra[0] + " more changes not listed");
        }
        return changes;
    }

    private static JsonNode strip(JsonNode manifest) {
        if (manifest instanceof ObjectNode object) {
            ObjectNode copy = object.deepCopy();
            copy.remove("version");
            copy.remove("contentHash");
            return copy;
        }
        return manifest;
    }

    private static void walk(String path, JsonNode a, JsonNode b, ArrayNode changes, int[] extra) {
        if (a != null && a.equals(b)) {
            return;
        }
        if (a != null && b != null && a.isObject() && b.isObject()) {
            TreeSet<String> names = new TreeSet<>();
            a.fieldNames().forEachRemaining(names::add);
            b.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                walk(path + "/" + name.replace("~", "~0").replace("/", "~1"), a.get(name), b.get(name), changes, extra);
            }
            return;
        }
        if (a != null && b != null && a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) {
                walk(path + "/" + i, a.get(i), b.get(i), changes, extra);
            }
            return;
        }
        if (changes.size() >= MAX_CHANGES) {
            extra[0]++;
            return;
        }
        ObjectNode change = changes.addObject().put("path", path);
        if (a != null) {
            change.set("before", a);
        }
        if (b != null) {
            change.set("after", b);
        }
    }
}
