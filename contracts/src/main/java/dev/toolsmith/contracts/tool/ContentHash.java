package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.erdtman.jcs.JsonCanonicalizer;

/**
 * SHA-256 over the canonical JSON of what a tool does (version and hash left out), or of any JSON value. Two
 * manifests with the same hash describe the same tool, whatever their catalog versions.
 *
 * <p>A hash names the way it was computed in its prefix ({@link Version}): new hashes are {@code sha256-jcs:}
 * (RFC 8785 canonical JSON, so {@code 1.0} and {@code 1} are one number); hashes stored or signed before are
 * {@code sha256:} (keys sorted only). Hashes are stored in the catalog and plugin registry and signed into approval
 * seals, so a stored hash is never compared as text with a new one: {@link #matches} recomputes the version the
 * stored hash names (docs/decisions/2026-11-27-versioned-content-hash.md).
 */
public final class ContentHash {

    private static final List<String> NOT_CONTENT = List.of("version", "contentHash");

    /** How a hash was computed, named by its prefix. */
    public enum Version {
        /** Keys sorted, Jackson's text otherwise: verified for what was stored or sealed with it, never written. */
        SORTED_KEYS("sha256:") {
            @Override
            byte[] canonical(JsonNode content) {
                return sortedKeys(content).toString().getBytes(StandardCharsets.UTF_8);
            }
        },
        /** RFC 8785 JSON Canonicalization Scheme: keys in UTF-16 order, numbers as shortest IEEE-754 doubles. */
        JCS("sha256-jcs:") {
            @Override
            byte[] canonical(JsonNode content) {
                refuseWhatJcsCannotWrite(content, "");
                try {
                    return new JsonCanonicalizer(content.toString()).getEncodedUTF8();
                } catch (IOException e) { // Jackson wrote the text, so it is JSON: a value JCS has no form for
                    throw new UnhashableContent("", e.getMessage() + " (RFC 8785)");
                }
            }
        };

        private final String prefix;

        Version(String prefix) {
            this.prefix = prefix;
        }

        public String prefix() {
            return prefix;
        }

        abstract byte[] canonical(JsonNode content);

        String hash(JsonNode content) {
            return prefix + sha256(canonical(content));
        }

        /** The version {@code hash} names; empty for null or a prefix no version has. */
        public static Optional<Version> of(String hash) {
            if (hash != null) {
                for (Version version : values()) {
                    if (hash.startsWith(version.prefix)) {
                        return Optional.of(version);
                    }
                }
            }
            return Optional.empty();
        }
    }

    /** The version new hashes are computed in. */
    public static final Version CURRENT = Version.JCS;

    private ContentHash() {
    }

    /** The hash of what {@code manifest} does, in the {@link #CURRENT} version. */
    public static String of(ToolManifest manifest, ObjectMapper mapper) {
        return CURRENT.hash(content(manifest, mapper));
    }

    /** The hash of any JSON value, in the {@link #CURRENT} version. */
    public static String of(JsonNode anyJson) {
        return CURRENT.hash(anyJson);
    }

    /**
     * Whether {@code stored} is the hash of what {@code manifest} does, recomputed in the version {@code stored}
     * names; false for null or an unknown version.
     */
    public static boolean matches(String stored, ToolManifest manifest, ObjectMapper mapper) {
        return matches(stored, content(manifest, mapper));
    }

    /**
     * Whether {@code stored} is the hash of {@code content} in the version it names; false for null, an unknown
     * version, or content that version cannot hash (no hash of it can exist).
     */
    public static boolean matches(String stored, JsonNode content) {
        Optional<Version> version = Version.of(stored);
        if (version.isEmpty()) {
            return false;
        }
        try {
            return version.get().hash(content).equals(stored);
        } catch (UnhashableContent e) {
            return false;
        }
    }

    private static JsonNode content(ToolManifest manifest, ObjectMapper mapper) {
        ObjectNode tree = mapper.valueToTree(manifest);
        NOT_CONTENT.forEach(tree::remove);
        return tree;
    }

    static JsonNode sortedKeys(JsonNode node) {
        if (node instanceof ObjectNode object) {
            List<String> names = new ArrayList<>();
            object.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode sorted = object.objectNode();
            for (String name : names) {
                sorted.set(name, sortedKeys(object.get(name)));
            }
            return sorted;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = array.arrayNode();
            array.forEach(element -> copy.add(sortedKeys(element)));
            return copy;
        }
        return node;
    }

    /**
     * RFC 8785 writes strings as UTF-8, where a lone surrogate has no form (Java would write {@code ?}, so two
     * strings would hash alike), and numbers as finite doubles. Either is the client's mistake, named by its JSON
     * Pointer. (NUL and other control characters are fine: JCS escapes them.)
     */
    private static void refuseWhatJcsCannotWrite(JsonNode node, String pointer) {
        if (node.isTextual()) {
            refuseLoneSurrogate(node.textValue(), pointer, "a string");
        } else if (node.isNumber() && !Double.isFinite(node.doubleValue())) {
            throw new UnhashableContent(pointer, "the number " + node.asText()
                    + " is beyond what a double holds, and canonical JSON (RFC 8785) has no form for it");
        } else if (node.isObject()) {
            for (var fields = node.fields(); fields.hasNext(); ) {
                var field = fields.next();
                String child = pointer + "/" + printable(field.getKey().replace("~", "~0").replace("/", "~1"));
                refuseLoneSurrogate(field.getKey(), child, "a field name");
                refuseWhatJcsCannotWrite(field.getValue(), child);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                refuseWhatJcsCannotWrite(node.get(i), pointer + "/" + i);
            }
        }
    }

    private static void refuseLoneSurrogate(String text, String pointer, String what) {
        text.codePoints().filter(ContentHash::lone).findFirst().ifPresent(lone -> {
            throw new UnhashableContent(pointer, what + " holds a lone UTF-16 surrogate (" + printable(
                    Character.toString(lone)) + "), which is no Unicode text");
        });
    }

    /** A code point that is half of a surrogate pair: {@link String#codePoints()} yields those alone. */
    private static boolean lone(int codePoint) {
        return Character.getType(codePoint) == Character.SURROGATE;
    }

    /** {@code text} with each lone surrogate written as a backslash-u escape: the error naming it must be writable. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            if (lone(c)) {
                out.append("\\u").append(HexFormat.of().toHexDigits((char) c));
            } else {
                out.appendCodePoint(c);
            }
        });
        return out.toString();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM ships SHA-256", e);
        }
    }
}
