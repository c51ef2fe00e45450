package dev.toolsmith.engineer.wrapper;

import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;

/** The completed plugin manifest, the policy it runs under, and what the generator adjusted. */
public record GeneratedWrapper(ToolManifest plugin, UsagePolicy policy, List<String> notes) {

    public GeneratedWrapper {
        notes = List.copyOf(notes);
    }
}
