package dev.toolsmith.librarian.airlock;

/** The largest page any of the airlock's long lists (sources, queue, gaps, audit, notifications) returns. */
public final class PageLimit {

    public static final int MAX_PAGE_SIZE = 200;

    private PageLimit() {
    }
}
