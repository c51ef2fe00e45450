package dev.toolsmith.search;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How well a step's input names fit a tool's parameter names, the same way on any catalog: names are
 * split into words ({@link IdentifierWords}), lower-cased, folded through a short table of abbreviations
 * and everyday synonyms, and a trailing plural "s" is dropped; an input fits a parameter when their word
 * sets overlap by at least half of the smaller one (Jaccard would punish {@code id} against {@code pet id}).
 * The table is about how APIs name things in general, never about one catalog.
 */
public final class InputOverlap {

    private static final Map<String, String> FOLD = Map.ofEntries(
            Map.entry("identifier", "id"), Map.entry("ident", "id"), Map.entry("uuid", "id"), Map.entry("key", "id"),
            Map.entry("num", "number"), Map.entry("no", "number"), Map.entry("nr", "number"),
            Map.entry("count", "number"), Map.entry("qty", "quantity"), Map.entry("amt", "amount"),
            Map.entry("sum", "amount"), Map.entry("value", "amount"),
            Map.entry("addr", "address"), Map.entry("desc", "description"), Map.entry("msg", "message"),
            Map.entry("img", "image"), Map.entry("pic", "image"), Map.entry("photo", "image"),
            Map.entry("uri", "url"), Map.entry("link", "url"), Map.entry("href", "url"),
            Map.entry("src", "source"), Map.entry("origin", "source"), Map.entry("from", "source"),
            Map.entry("dest", "target"), Map.entry("destination", "target"), Map.entry("to", "target"),
            Map.entry("lang", "language"), Map.entry("locale", "language"),
            Map.entry("org", "organization"), Map.entry("organisation", "organization"),
            Map.entry("repo", "repository"), Map.entry("dir", "directory"), Map.entry("folder", "directory"),
            Map.entry("username", "user"), Map.entry("login", "user"), Map.entry("account", "user"),
            Map.entry("email", "mail"), Map.entry("e", "mail"),
            Map.entry("text", "content"), Map.entry("body", "content"), Map.entry("payload", "content"),
            Map.entry("data", "content"), Map.entry("title", "name"), Map.entry("label", "name"),
            Map.entry("q", "query"), Map.entry("search", "query"), Map.entry("term", "query"),
            Map.entry("keyword", "query"), Map.entry("limit", "size"), Map.entry("max", "size"),
            Map.entry("per", "size"), Map.entry("page", "page"), Map.entry("offset", "start"),
            Map.entry("begin", "start"), Map.entry("since", "start"), Map.entry("until", "end"),
            Map.entry("finish", "end"), Map.entry("datetime", "date"), Map.entry("time", "date"),
            Map.entry("timestamp", "date"), Map.entry("day", "date"), Map.entry("cur", "currency"),
            Map.entry("ccy", "currency"), Map.entry("fmt", "format"), Map.entry("cfg", "config"),
            Map.entry("configuration", "config"), Map.entry("settings", "config"),
            Map.entry("param", "parameter"), Map.entry("arg", "parameter"), Map.entry("argument", "parameter"),
            Map.entry("attr", "attribute"), Map.entry("prop", "attribute"), Map.entry("property", "attribute"),
            Map.entry("info", "information"), Map.entry("loc", "location"), Map.entry("place", "location"),
            Map.entry("pos", "position"), Map.entry("lat", "latitude"), Map.entry("lng", "longitude"),
            Map.entry("lon", "longitude"), Map.entry("long", "longitude"), Map.entry("tel", "phone"),
            Map.entry("telephone", "phone"), Map.entry("mobile", "phone"), Map.entry("pwd", "password"),
            Map.entry("pass", "password"), Map.entry("token", "token"), Map.entry("ver", "version"),
            Map.entry("rev", "version"), Map.entry("revision", "version"));

    /** Words that name no thing by themselves; a match on them alone is no evidence. */
    static final Set<String> WEAK = Set.of("id", "name", "type", "the", "a", "of", "for", "in", "by",
            "number", "content", "size", "page", "start", "end", "parameter", "attribute", "information");

    // compiled once: String.replaceAll and split compile their pattern on every call, and these run for every
    // query and for every tool indexed
    private static final Pattern NOT_LETTER_OR_DIGIT = Pattern.compile("[^\\p{L}\\p{N}]");
    private static final Pattern TEXT_SEPARATORS = Pattern.compile("[^\\p{L}\\p{N}_\\-.:/]+");

    private InputOverlap() {
    }

    /** The folded words of one identifier. */
    public static Set<String> words(String name) {
        Set<String> out = new HashSet<>();
        if (name == null) {
            return out;
        }
        for (String part : IdentifierWords.parts(name.strip())) {
            String w = NOT_LETTER_OR_DIGIT.matcher(part.toLowerCase(Locale.ROOT)).replaceAll("");
            if (w.isEmpty()) {
                continue;
            }
            if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss")) {
                w = w.substring(0, w.length() - 1);
            }
            out.add(FOLD.getOrDefault(w, w));
        }
        return out;
    }

    /** The folded words of free text (identifiers in it split the same way). */
    public static Set<String> textWords(String text) {
        Set<String> out = new HashSet<>();
        if (text != null) {
            for (String token : TEXT_SEPARATORS.split(text)) {
                out.addAll(words(token));
            }
        }
        return out;
    }

    /** Whether an input named {@code input} can feed a parameter named {@code parameter}. */
    public static boolean fits(String input, String parameter) {
        return fits(words(input), words(parameter));
    }

    static boolean fits(Set<String> a, Set<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        if (a.equals(b)) {
            return true;
        }
        int common = 0;
        boolean strong = false;
        for (String w : a) {
            if (b.contains(w)) {
                common++;
                strong |= !WEAK.contains(w);
            }
        }
        return strong && 2 * common >= Math.min(a.size(), b.size());
    }

    /** The top-level parameter names of an input JSON Schema (in schema order, at most 64). */
    public static List<String> parameterNames(JsonNode inputSchema) {
        List<String> out = new ArrayList<>();
        JsonNode props = inputSchema == null ? null : inputSchema.get("properties");
        if (props != null && props.isObject()) {
            Iterator<String> it = props.fieldNames();
            while (it.hasNext() && out.size() < 64) {
                out.add(it.next());
            }
        }
        return out;
    }

    /**
     * The share of {@code inputs} that fit a distinct parameter (greedy, in order): 1 when every input
     * can be mapped, 0 when none can or there are no inputs.
     */
    public static double share(List<String> inputs, List<String> parameters) {
        return shareFed(wordsOf(inputs), wordsOf(parameters));
    }

    /** The folded words of each name, in order: split once per query, not once per tool it is compared with. */
    static List<Set<String>> wordsOf(List<String> names) {
        List<Set<String>> out = new ArrayList<>(names.size());
        for (String name : names) {
            out.add(words(name));
        }
        return out;
    }

    /** {@link #share} over inputs and parameters already split by {@link #wordsOf}. */
    static double shareFed(List<Set<String>> inputs, List<Set<String>> params) {
        if (inputs.isEmpty() || params.isEmpty()) {
            return 0;
        }
        boolean[] used = new boolean[params.size()];
        int mapped = 0;
        for (Set<String> w : inputs) {
            for (int i = 0; i < params.size(); i++) {
                if (!used[i] && fits(w, params.get(i))) {
                    used[i] = true;
                    mapped++;
                    break;
                }
            }
        }
        return (double) mapped / inputs.size();
    }

    /**
     * The share of the tool's required top-level parameters that no input fits: 0 when every required
     * parameter can be fed (or none is required), 1 when none can.
     */
    public static double unfedRequired(List<String> inputs, JsonNode inputSchema) {
        return unfedShare(wordsOf(inputs), requiredWords(inputSchema));
    }

    /** The folded words of each required top-level parameter of an input JSON Schema (at most 64, in order). */
    static List<Set<String>> requiredWords(JsonNode inputSchema) {
        JsonNode required = inputSchema == null ? null : inputSchema.get("required");
        List<Set<String>> out = new ArrayList<>();
        if (required != null && required.isArray()) {
            for (JsonNode r : required) {
                if (out.size() == 64) {
                    break;
                }
                out.add(words(r.asText("")));
            }
        }
        return out;
    }

    /** {@link #unfedRequired} over inputs and required parameters already split ({@link #wordsOf}, {@link #requiredWords}). */
    static double unfedShare(List<Set<String>> in, List<Set<String>> required) {
        if (required.isEmpty()) {
            return 0;
        }
        int unfed = 0;
        for (Set<String> p : required) {
            boolean fed = false;
            for (Set<String> w : in) {
                if (fits(w, p)) {
                    fed = true;
                    break;
                }
            }
            unfed += fed ? 0 : 1;
        }
        return (double) unfed / required.size();
    }
}
