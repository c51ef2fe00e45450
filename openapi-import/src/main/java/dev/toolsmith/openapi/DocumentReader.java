package dev.toolsmith.openapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Reads a JSON or YAML document into a Jackson tree under the ingestion limits. YAML goes through
 * SnakeYAML's safe constructor (no arbitrary types) with caps on aliases to collections, nesting and
 * code points, and the conversion to a tree counts nodes: a "billion laughs" document is refused
 * before it expands.
 */
final class DocumentReader {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final IngestionLimits limits;
    private final ObjectMapper json;

    DocumentReader(IngestionLimits limits) {
        this.limits = limits;
        JsonFactory factory = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(limits.maxNestingDepth())
                        .maxStringLength((int) Math.min(Integer.MAX_VALUE, limits.fetch().maxBytes()))
                        .build())
                .build();
        this.json = new ObjectMapper(factory);
    }

    JsonNode read(byte[] bytes, String what) throws IngestionException {
        if (bytes.length > limits.fetch().maxBytes()) {
            throw new IngestionException(IngestionException.Reason.TOO_COMPLEX, what + " is " + bytes.length
                    + " bytes, more than the limit of " + limits.fetch().maxBytes() + " bytes");
        }
        String text = decode(bytes, what);
        String trimmed = text.stripLeading();
        if (trimmed.isEmpty()) {
            throw new IngestionException(IngestionException.Reason.MALFORMED, what + " is empty");
        }
        if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
            try {
                return readJson(trimmed, what);
            } catch (IngestionException jsonProblem) {
                if (jsonProblem.reason() != IngestionException.Reason.MALFORMED) {
                    throw jsonProblem;
                }
                // YAML flow style also starts with a brace; if it is not YAML either, the JSON error says more
                try {
                    return readYaml(text, what);
                } catch (IngestionException yamlProblem) {
                    if (yamlProblem.reason() == IngestionException.Reason.TOO_COMPLEX) {
                        throw yamlProblem;
                    }
                    throw jsonProblem;
                }
            }
        }
        return readYaml(text, what);
    }

    private JsonNode readJson(String text, String what) throws IngestionException {
        try {
            JsonNode tree = json.readTree(text);
            if (tree == null) {
                throw new IngestionException(IngestionException.Reason.MALFORMED, what + " is empty");
            }
            return tree;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr();
            if (e.getOriginalMessage() != null && e.getOriginalMessage().contains("nesting depth")) {
                throw new IngestionException(IngestionException.Reason.TOO_COMPLEX, what + " nests deeper than "
                        + limits.maxNestingDepth() + " levels" + where);
            }
            throw new IngestionException(IngestionException.Reason.MALFORMED, what + " is not valid JSON" + where + ": "
                    + e.getOriginalMessage());
        }
    }

    private JsonNode readYaml(String text, String what) throws IngestionException {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(limits.maxYamlAliases());
        options.setAllowRecursiveKeys(false);
        options.setNestingDepthLimit(limits.maxNestingDepth());
        options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.fetch().maxBytes()));
        options.setAllowDuplicateKeys(true);
        Object loaded;
        try {
            loaded = new Yaml(new SafeConstructor(options)).load(text);
        } catch (MarkedYAMLException e) {
            String problem = e.getProblem() == null ? e.getMessage() : e.getProblem();
            if (problem != null && problem.contains("aliases")) {
                throw aliasBomb(what);
            }
            String where = e.getProblemMark() == null ? "" : " at line " + (e.getProblemMark().getLine() + 1)
                    + ", column " + (e.getProblemMark().getColumn() + 1);
            throw new IngestionException(IngestionException.Reason.MALFORMED, what + " is not valid YAML" + where + ": "
                    + problem);
        } catch (YAMLException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("aliases")) {
                throw aliasBomb(what);
            }
            if (message.contains("Nesting Depth")) {
                throw new IngestionException(IngestionException.Reason.TOO_COMPLEX, what + " nests deeper than "
                        + limits.maxNestingDepth() + " levels");
            }
            throw new IngestionException(IngestionException.Reason.MALFORMED, what + " is not valid YAML: " + message);
        } catch (StackOverflowError e) {
            throw new IngestionException(IngestionException.Reason.TOO_COMPLEX, what + " nests too deeply to read");
        }
        if (loaded == null) {
            throw new IngestionException(IngestionException.Reason.MALFORMED, what + " is empty");
        }
        long[] budget = {Math.max(100_000L, limits.fetch().maxBytes() / 2)};
        return toTree(loaded, budget, what);
    }

    private IngestionException aliasBomb(String what) {
        return new IngestionException(IngestionException.Reason.TOO_COMPLEX, what + " uses more than "
                + limits.maxYamlAliases() + " YAML aliases to collections; refused as a possible alias-expansion"
                + " ('billion laughs') attack");
    }

    /** SnakeYAML shares aliased objects; expanding them is where a bomb explodes, so nodes are counted. */
    private JsonNode toTree(Object value, long[] budget, String what) throws IngestionException {
        if (--budget[0] < 0) {
            throw new IngestionException(IngestionException.Reason.TOO_COMPLEX, what
                    + " expands to too many nodes (YAML aliases multiply its size); refused");
        }
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = NODES.objectNode();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                object.set(keyText(entry.getKey()), toTree(entry.getValue(), budget, what));
            }
            return object;
        }
        if (value instanceof List<?> list) {
            ArrayNode array = NODES.arrayNode();
            for (Object item : list) {
                array.add(toTree(item, budget, what));
            }
            return array;
        }
        if (value instanceof String s) {
            return NODES.textNode(s);
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer i) {
            return NODES.numberNode(i);
        }
        if (value instanceof Long l) {
            return NODES.numberNode(l);
        }
        if (value instanceof BigInteger big) {
            return NODES.numberNode(big);
        }
        if (value instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? NODES.textNode(d.toString()) : NODES.numberNode(BigDecimal.valueOf(d));
        }
        if (value instanceof Date date) {
            // YAML timestamps (example dates) stay the text a JSON document would have had
            return NODES.textNode(date.toInstant().atOffset(ZoneOffset.UTC).toString());
        }
        if (value instanceof byte[] binary) {
            return NODES.textNode(java.util.Base64.getEncoder().encodeToString(binary));
        }
        if (value instanceof java.util.Set<?> set) {
            ArrayNode array = NODES.arrayNode();
            for (Object item : set) {
                array.add(toTree(item, budget, what));
            }
            return array;
        }
        return NODES.textNode(String.valueOf(value));
    }

    private static String keyText(Object key) {
        if (key instanceof Date date) {
            return date.toInstant().atOffset(ZoneOffset.UTC).toString();
        }
        return String.valueOf(key);
    }

    private static String decode(byte[] bytes, String what) throws IngestionException {
        int offset = bytes.length >= 3 && (bytes[0] & 0xff) == 0xef && (bytes[1] & 0xff) == 0xbb
                && (bytes[2] & 0xff) == 0xbf ? 3 : 0;
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes, offset, bytes.length - offset))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IngestionException(IngestionException.Reason.MALFORMED, what
                    + " is not UTF-8 text (is it a binary file?)");
        }
    }
}
