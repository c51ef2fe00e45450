package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * SHA-256 over the canonical JSON (keys sorted, version and hash left out) of what a tool does. Two
 * manifests with the same hash describe the same tool, whatever their catalog versions.
 */
public final class ContentHash {

    private static final List<String> NOT_CONTENT = List.of("version", "contentHash");

    private ContentHash() {
    }

    public static String of(ToolManifest manifest, ObjectMapper mapper) {
        ObjectNode tree = mapper.valueToTree(manifest);
        NOT_CONTENT.forEach(tree::remove);
        return sha256(canonical(tree).toString());
    }

    public static String of(JsonNode anyJson) {
        return sha256(canonical(anyJson).toString());
    }

    static JsonNode canonical(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode sorted = object.objectNode();
            for (String name : names) {
                sorted.set(name, canonical(object.get(name)));
            }
            return sorted;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode();
            array.forEach(element -> copy.add(canonical(element)));
            return copy;
        }
        return node;
    }

    private static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships SHA-256", e);
        }
    }
}
