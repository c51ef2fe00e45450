package dev.toolsmith.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * When swagger-parser crashes on a document (it throws on some malformed operations instead of
 * reporting them), this finds the operations it crashes on by parsing halves of the document's
 * operations (bisection: a few dozen parses for a handful of bad operations among thousands), takes
 * them out with the parser's error as the reason, and parses the rest. A crash outside every operation
 * (in shared definitions) still refuses the document, with the error in words.
 */
final class ParserFailures {

    /** Parses beyond which a document is refused rather than bisected further. */
    private static final int MAX_PARSES = 200;

    private final JsonNode tree;
    private final Function<JsonNode, OpenApiNormalizer.Parsed> parse;
    private final String what;
    private final String dialect;
    private int parses;

    private final OpenApiNormalizer.Parsed parsed;
    private final List<SkippedOperation> skipped;

    private ParserFailures(JsonNode tree, Function<JsonNode, OpenApiNormalizer.Parsed> parse, String what,
            String dialect, Throwable first) throws IngestionException {
        this.tree = tree;
        this.parse = parse;
        this.what = what;
        this.dialect = dialect;
        List<Unit> units = units();
        if (units.isEmpty() || crash(List.of()).isPresent()) {
            throw refused("the " + dialect + " parser failed on it: " + describe(first));
        }
        Map<Unit, Throwable> bad = new LinkedHashMap<>();
        bisect(units, first, bad);
        if (bad.size() == units.size()) {
            throw refused("the " + dialect + " parser failed on every operation; the first: " + describe(first));
        }
        List<SkippedOperation> out = new ArrayList<>();
        bad.forEach((unit, error) -> out.add(new SkippedOperation(unit.key(), "the " + dialect
                + " parser failed on this operation (" + describe(error) + ")")));
        List<Unit> good = units.stream().filter(u -> !bad.containsKey(u)).toList();
        OpenApiNormalizer.Parsed rest;
        try {
            rest = parse.apply(withOnly(good));
        } catch (RuntimeException | StackOverflowError e) {
            throw refused("the " + dialect + " parser failed on it even without the operations it failed on: "
                    + describe(e));
        }
        this.parsed = rest;
        this.skipped = List.copyOf(out);
    }

    static ParserFailures isolate(JsonNode tree, Function<JsonNode, OpenApiNormalizer.Parsed> parse, String what,
            String dialect, Throwable first) throws IngestionException {
        return new ParserFailures(tree, parse, what, dialect, first);
    }

    OpenApiNormalizer.Parsed parsed() {
        return parsed;
    }

    List<SkippedOperation> skipped() {
        return skipped;
    }

    /** One operation: a method of a path. */
    private record Unit(String path, String method) {
        String key() {
            return method.toUpperCase(Locale.ROOT) + " " + path;
        }
    }

    private List<Unit> units() {
        List<Unit> units = new ArrayList<>();
        tree.path("paths").fields().forEachRemaining(entry -> {
            for (String method : BrokenReferences.METHODS) {
                if (entry.getValue().has(method)) {
                    units.add(new Unit(entry.getKey(), method));
                }
            }
        });
        return units;
    }

    /** Adds to {@code bad} the operations of {@code units} the parser crashes on ({@code known}: their crash). */
    private void bisect(List<Unit> units, Throwable known, Map<Unit, Throwable> bad) throws IngestionException {
        Throwable crash = known != null ? known : crash(units).orElse(null);
        if (crash == null) {
            return;
        }
        if (units.size() == 1) {
            bad.put(units.get(0), crash);
            return;
        }
        int half = units.size() / 2;
        bisect(units.subList(0, half), null, bad);
        bisect(units.subList(half, units.size()), null, bad);
    }

    private Optional<Throwable> crash(List<Unit> units) throws IngestionException {
        if (++parses > MAX_PARSES) {
            throw refused("the " + dialect + " parser fails on too many of its operations to single them out");
        }
        try {
            parse.apply(withOnly(units));
            return Optional.empty();
        } catch (RuntimeException | StackOverflowError e) {
            return Optional.of(e);
        }
    }

    /** A copy of the document whose paths hold only {@code units} (each path item keeps its shared parts). */
    private JsonNode withOnly(List<Unit> units) {
        // a shallow copy: the parser reads the text of the tree and never changes it
        ObjectNode copy = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        tree.fields().forEachRemaining(field -> copy.set(field.getKey(), field.getValue()));
        ObjectNode paths = copy.putObject("paths");
        for (Unit unit : units) {
            JsonNode item = tree.path("paths").get(unit.path());
            ObjectNode target = paths.has(unit.path()) ? (ObjectNode) paths.get(unit.path()) : shared(item, paths,
                    unit.path());
            target.set(unit.method(), item.get(unit.method()));
        }
        return copy;
    }

    private static ObjectNode shared(JsonNode item, ObjectNode paths, String path) {
        ObjectNode target = paths.putObject(path);
        Iterator<Map.Entry<String, JsonNode>> fields = item.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!BrokenReferences.METHODS.contains(field.getKey())) {
                target.set(field.getKey(), field.getValue());
            }
        }
        return target;
    }

    private IngestionException refused(String why) {
        return new IngestionException(IngestionException.Reason.INVALID_OPENAPI, what + " cannot be read: " + why);
    }

    static String describe(Throwable e) {
        String message = e.getMessage() == null ? "" : ": " + e.getMessage();
        String text = e.getClass().getSimpleName() + message;
        return text.length() > 300 ? text.substring(0, 299) + "…" : text;
    }
}
