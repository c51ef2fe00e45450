package dev.toolsmith.capabilities.resolution;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Verbs in one form for lookups and search: {@code CONVERT_CURRENCY}, {@code convertCurrency} and
 * {@code convert-currency} all become {@code "convert currency"} (the librarian normalises the same way
 * before BM25 and embeddings).
 */
public final class VerbNormalizer {

    private static final Pattern LOWER_UPPER = Pattern.compile("([a-z0-9])([A-Z])");
    private static final Pattern ACRONYM_WORD = Pattern.compile("([A-Z]+)([A-Z][a-z])");
    private static final Pattern SEPARATORS = Pattern.compile("[\\s_\\-.:/]+");

    private VerbNormalizer() {
    }

    public static String normalize(String verb) {
        if (verb == null) {
            return "";
        }
        String split = ACRONYM_WORD.matcher(verb.trim()).replaceAll("$1 $2");
        split = LOWER_UPPER.matcher(split).replaceAll("$1 $2");
        return SEPARATORS.matcher(split).replaceAll(" ").trim().toLowerCase(Locale.ROOT);
    }
}
