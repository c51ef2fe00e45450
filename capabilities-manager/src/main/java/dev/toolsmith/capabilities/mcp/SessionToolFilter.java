package dev.toolsmith.capabilities.mcp;

import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager;
import jakarta.enterprise.context.ApplicationScoped;

/** The meta-tools for every session; a loaded catalog tool only for the sessions that loaded it. */
@ApplicationScoped
public class SessionToolFilter implements ToolFilter {

    private final LoadedTools loaded;
    private final ActiveToolSets sets;

    public SessionToolFilter(LoadedTools loaded, ActiveToolSets sets) {
        this.loaded = loaded;
        this.sets = sets;
    }

    @Override
    public boolean test(ToolManager.ToolInfo tool, McpConnection connection) {
        String toolId = loaded.toolIdOf(tool.name());
        return toolId == null || sets.has(connection.id(), toolId);
    }
}
