package dev.toolsmith.librarian.airlock;

import dev.toolsmith.contracts.tool.ToolSourceType;
import java.util.UUID;

/** The parts of a source a scan needs, read once when the scan claims it. */
public record SourceSnapshot(UUID id, String name, ToolSourceType type, String url, String branch, String path,
        boolean suspendOnChange, int intervalSeconds) {

    static SourceSnapshot of(SourceEntity source) {
        return new SourceSnapshot(source.id, source.name, ToolSourceType.fromWire(source.type), source.url,
                source.branch, source.path, source.suspendOnChange, source.intervalSeconds);
    }
}
