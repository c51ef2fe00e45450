package dev.toolsmith.eventing.rest;

/**
 * The one rule for {@code page}/{@code size} query parameters of every listing: a page from 0, a size
 * within 1..max, and a first row ({@code page × size}) that a query can still skip to. Without the last
 * check a huge page overflowed the int offset and the client got Hibernate's "First result cannot be
 * negative", which names neither parameter. A violation is an {@link IllegalArgumentException}, which
 * the services answer with 400 and its message.
 */
public final class Paging {

    private Paging() {
    }

    public static void check(int page, int size, int maxSize) {
        if (page < 0) {
            throw new IllegalArgumentException("page: " + page + " is below 0");
        }
        if (size < 1 || size > maxSize) {
            throw new IllegalArgumentException("size: " + size + " is outside 1.." + maxSize);
        }
        long lastPage = Integer.MAX_VALUE / size;
        if (page > lastPage) {
            throw new IllegalArgumentException("page: " + page + " is past the last page a listing can reach with size "
                    + size + " (" + lastPage + ")");
        }
    }

    /**
     * A listing's {@code limit} (how many rows, no pages) within 1..max. Out-of-range values are refused, not
     * clamped: a client that asked for -1 or a million rows should learn the bound, not get a silent other
     * answer.
     */
    public static int limit(String parameter, int value, int maxLimit) {
        if (value < 1 || value > maxLimit) {
            throw new IllegalArgumentException(parameter + ": " + value + " is outside 1.." + maxLimit);
        }
        return value;
    }
}
