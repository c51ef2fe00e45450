package dev.toolsmith.capabilities.mcp;

import dev.toolsmith.contracts.tool.VerbNormalizer;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The optional query of a {@code tools/list} request, read from its {@code params._meta} under {@link #KEY}
 * (docs/mcp.md, "Filtering tools/list"). Its words are the query's identifiers split and lower-cased by
 * {@link VerbNormalizer}, the normaliser the resolver and the search index use, so {@code RateBravo},
 * {@code rate_bravo} and {@code rate bravo} ask the same. A tool matches when every word of the query is a word,
 * or the start of a word, of the tool's text: an all-words keyword filter over a session's few loaded tools (the
 * search that ranks is {@code find_tools}).
 *
 * <p>The library gives a listing filter no way to answer a JSON-RPC error (quarkus-mcp-server logs an
 * exception a filter throws and lists the tool anyway), so a query that cannot be used is {@linkplain #refused()
 * refused}: it matches no tool, and the listing keeps only what is listed whatever the query says (the meta-tools).
 */
public final class ListingQuery {

    /**
     * The {@code _meta} key. MCP asks for a reverse-DNS prefix on keys of one's own (and keeps {@code mcp} and
     * {@code modelcontextprotocol} prefixes for itself), so no other extension's {@code query} is read as ours.
     */
    public static final String KEY = "dev.toolsmith/query";
    /** A keyword filter over at most 32 loaded tools needs no more; longer is refused, not cut. */
    public static final int MAX_CHARS = 256;

    /** No query: the listing is not filtered. */
    public static final ListingQuery NONE = new ListingQuery(List.of(), null);

    private final List<String> words;
    private final String refusal;

    private ListingQuery(List<String> words, String refusal) {
        this.words = words;
        this.refusal = refusal;
    }

    /** The query of a request whose {@code _meta} has {@code value} under {@link #KEY} (null: none, or JSON null). */
    public static ListingQuery of(Object value) {
        if (value == null) {
            return NONE;
        }
        String refusal = reasonToRefuse(value);
        return refusal == null ? new ListingQuery(words((String) value), null) : refused(refusal);
    }

    /** A query that cannot be used, for {@code reason}: it matches no tool. */
    public static ListingQuery refused(String reason) {
        return new ListingQuery(List.of(), reason);
    }

    /** Why {@code value} cannot be a query, or null when it can. */
    static String reasonToRefuse(Object value) {
        if (!(value instanceof String text)) {
            return KEY + ": not a string";
        }
        if (text.length() > MAX_CHARS) {
            return KEY + ": longer than " + MAX_CHARS + " characters";
        }
        if (text.codePoints().anyMatch(Character::isISOControl)) {
            return KEY + ": holds a control character";
        }
        return null;
    }

    public boolean refused() {
        return refusal != null;
    }

    /** Why the query was refused (names the key and the problem, never the value), or null. */
    public String refusal() {
        return refusal;
    }

    /** Whether a tool with these texts (name, verb, description, parameter names) is listed under this query. */
    public boolean matches(Collection<String> texts) {
        if (refused()) {
            return false;
        }
        if (words.isEmpty()) {
            return true;
        }
        Set<String> toolWords = texts.stream().flatMap(t -> words(t).stream()).collect(Collectors.toSet());
        return words.stream().allMatch(w -> toolWords.stream().anyMatch(t -> t.startsWith(w)));
    }

    /** The normaliser's words, without the punctuation it leaves on them ({@code "rates?"} is {@code rates}). */
    private static List<String> words(String text) {
        return Arrays.stream(VerbNormalizer.normalize(text).split("[^\\p{L}\\p{N}]+")).filter(w -> !w.isEmpty())
                .distinct().toList();
    }
}
