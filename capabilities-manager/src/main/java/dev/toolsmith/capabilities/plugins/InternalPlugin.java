package dev.toolsmith.capabilities.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.List;

/**
 * A plugin that runs in-process and touches no network. Implementations are CDI beans: each is
 * registered at start-up and announced to the librarian. {@link #execute} must be a pure function of
 * its inputs (it may run inside the step's database transaction) and is only called with inputs that
 * passed the manifest's input schema.
 */
public interface InternalPlugin {

    /** The manifest without version and content hash (the registry assigns them). */
    ToolManifest manifest();

    /** Throws {@link PluginFailure} when the inputs are valid JSON but make no sense (e.g. unknown unit). */
    ObjectNode execute(ObjectNode inputs);

    /** Worked examples; run at start-up as the plugin's verification suite and shown in its report. */
    List<Example> examples();

    record Example(String name, ObjectNode inputs, ObjectNode expectedOutputs) {
    }
}
