package dev.toolsmith.librarian.airlock.discovery;

import java.util.List;

/**
 * What one read of a source found: the tools, and what it had to skip (each "what: why").
 * {@code complete} is false when the tools are only part of what the source offers (a directory lists
 * APIs that are ingested only for gaps): candidates missing from it are then not withdrawn.
 * {@code offered} is what the source offers in all (tools, or a directory's APIs).
 */
public record Discovery(List<DiscoveredTool> tools, List<String> skipped, boolean complete, int offered) {

    public Discovery {
        tools = List.copyOf(tools);
        skipped = List.copyOf(skipped);
    }

    public Discovery(List<DiscoveredTool> tools, List<String> skipped) {
        this(tools, skipped, true, tools.size());
    }
}
