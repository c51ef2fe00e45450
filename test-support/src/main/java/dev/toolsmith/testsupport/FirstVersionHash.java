package dev.toolsmith.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.TreeMap;

/**
 * The content hash as rows stored before hashes were versioned hold it ({@code sha256:} over Jackson's text of the
 * manifest with keys sorted, version and hash left out), written here independently of ContentHash, so tests can
 * put such a row in the database and check that nothing reads it as changed.
 */
public final class FirstVersionHash {

    private FirstVersionHash() {
    }

    public static String of(ToolManifest manifest, ObjectMapper mapper) {
        ObjectNode tree = mapper.valueToTree(manifest);
        tree.remove("version");
        tree.remove("contentHash");
        try {
            byte[] text = sorted(tree, mapper).toString().getBytes(StandardCharsets.UTF_8);
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sorted(JsonNode node, ObjectMapper mapper) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> fields = new TreeMap<>();
            node.fields().forEachRemaining(field -> fields.put(field.getKey(), sorted(field.getValue(), mapper)));
            ObjectNode copy = mapper.createObjectNode();
            fields.forEach(copy::set);
            return copy;
        }
        if (node.isArray()) {
            var copy = mapper.createArrayNode();
            node.forEach(element -> copy.add(sorted(element, mapper)));
            return copy;
        }
        return node;
    }
}
