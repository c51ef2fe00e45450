package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a tool came from. */
public enum ToolSourceType {
    INTERNAL,
    OPENAPI,
    GIT,
    MARKETPLACE,
    DIRECTORY;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static ToolSourceType fromWire(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
