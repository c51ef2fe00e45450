package dev.toolsmith.librarian.airlock.discovery;

import dev.toolsmith.contracts.tool.ToolSourceType;
import java.util.UUID;

/** The parts of a source a scan needs, read once when the scan claims it. */
public record SourceSnapshot(UUID id, String name, ToolSourceType type, String url, String branch, String path,
        boolean suspendOnChange, int intervalSeconds) {
}
