package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.CatalogEntry;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Whether a catalogued tool may appear in search. Written in lower case in the database, REST and events. */
public enum ToolStatus {
    ACTIVE(CatalogEntry.ACTIVE),
    DISABLED(CatalogEntry.DISABLED);

    private final String wire;

    ToolStatus(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<ToolStatus> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String wanted = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(s -> s.wire.equals(wanted)).findFirst();
    }
}
