package dev.toolsmith.capabilities.mcp;

import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.tool.Risk;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkiverse.mcp.server.runtime.Messages;
import io.quarkiverse.mcp.server.runtime.Sender;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jboss.logging.Logger;

/**
 * Loaded catalog tools as first-class MCP tools. A tool one session loads is registered once with the MCP
 * server under its verb (unique in the registry, and a valid MCP tool name), with its manifest's description
 * and input schema; {@link SessionToolFilter} shows it only in the {@code tools/list} of the sessions that
 * loaded it and refuses it to the others. Calling it runs a plan step exactly as {@code call_tool} does.
 */
@ApplicationScoped
public class LoadedTools {

    private static final Logger LOG = Logger.getLogger(LoadedTools.class);
    static final String LIST_CHANGED = "notifications/tools/list_changed";

    private final ToolManager tools;
    private final ActiveToolSets sets;
    private final McpSteps steps;
    private final StepAnswers answers;
    private final SecurityIdentity identity;
    private final ConnectionManager connections;
    /** MCP tool name (the verb) → catalog tool id, for every tool some session loaded. */
    private final ConcurrentMap<String, String> registered = new ConcurrentHashMap<>();

    public LoadedTools(ToolManager tools, ActiveToolSets sets, McpSteps steps, StepAnswers answers,
            SecurityIdentity identity, ConnectionManager connections) {
        this.tools = tools;
        this.sets = sets;
        this.steps = steps;
        this.answers = answers;
        this.identity = identity;
        this.connections = connections;
    }

    /** The catalog tool an MCP tool name stands for, if it is a loaded tool. */
    public String toolIdOf(String mcpName) {
        return registered.get(mcpName);
    }

    /** Makes sure {@code plugin} is registered with the MCP server. */
    public synchronized void ensureRegistered(Plugin plugin) {
        if (plugin.toolId().equals(registered.get(plugin.verb()))) {
            return;
        }
        Risk risk = plugin.risk();
        // Known before it is registered, so the filter never shows it to a session that did not load it.
        registered.put(plugin.verb(), plugin.toolId());
        tools.newTool(plugin.verb())
                .setTitle(plugin.manifest().name() == null ? plugin.toolId() : plugin.manifest().name())
                .setDescription(plugin.manifest().description() == null ? plugin.toolId()
                        : plugin.manifest().description())
                .setInputSchema(plugin.manifest().inputSchema() == null ? Map.of("type", "object")
                        : plugin.manifest().inputSchema())
                .setAnnotations(new ToolManager.ToolAnnotations(null, risk == Risk.READ_ONLY,
                        risk == Risk.DESTRUCTIVE, false, plugin.manifest().binding() != null))
                .setAsyncHandler(args -> call(plugin.toolId(), plugin.verb(), args.connection(), args.args()))
                .register();
    }

    private Uni<ToolResponse> call(String toolId, String verb, McpConnection connection, Map<String, Object> arguments) {
        String caller = identity.getPrincipal().getName();
        return steps.run(connection.id(), verb, "MCP tools/call " + toolId, arguments, caller, null)
                .map(result -> answers.of(result));
    }

    /**
     * Tells one session its tool list changed. Only that session's active set changed, so only it is told;
     * the message goes out on the session's open GET stream (Streamable HTTP), as the server's own
     * notifications do.
     */
    public void notifyChanged(McpConnection connection) {
        if (connection instanceof Sender sender) {
            sender.send(Messages.newNotification(LIST_CHANGED));
        }
    }

    /** Forgets the active sets of closed sessions and unregisters the tools nobody has loaded any more. */
    @Scheduled(every = "60s", delayed = "60s")
    void forgetClosedSessions() {
        for (String toolId : sets.forgetSessions(session -> !connections.has(session))) {
            registered.entrySet().stream().filter(e -> e.getValue().equals(toolId)).map(Map.Entry::getKey).toList()
                    .forEach(name -> {
                        registered.remove(name);
                        tools.removeTool(name);
                        LOG.debugf("MCP tool %s (%s) unregistered: no session has it loaded", name, toolId);
                    });
        }
    }
}
