package dev.toolsmith.librarian.airlock;

import java.util.Locale;
import java.util.Map;

/**
 * The {@code sort} query parameter of the airlock's long lists: one key the list offers, ascending, or
 * descending with a leading {@code -} ({@code -updated}). Only the offered keys reach a query, each as a
 * fixed expression, so the parameter can never inject anything; an unknown key is a 400 naming the keys.
 */
public final class ListOrder {

    private ListOrder() {
    }

    /**
     * @param columns the keys a list may be sorted by and the query expression of each (insertion order is the
     *        order the error message lists them in)
     * @return an {@code order by} clause ending with {@code id}, so pages never overlap or skip a row
     */
    public static String orderBy(String sort, String fallback, Map<String, String> columns) {
        String text = sort == null || sort.isBlank() ? fallback : sort.trim();
        boolean descending = text.startsWith("-");
        String key = (descending ? text.substring(1) : text).toLowerCase(Locale.ROOT);
        String column = columns.get(key);
        if (column == null) {
            throw new IllegalArgumentException("sort: '" + LogSafeText.of(text) + "' is not one of "
                    + String.join(", ", columns.keySet()) + " (a leading - sorts descending)");
        }
        return " order by " + column + (descending ? " desc" : " asc") + ", id";
    }
}
