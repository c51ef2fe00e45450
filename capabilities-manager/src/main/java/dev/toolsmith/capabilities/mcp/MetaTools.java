package dev.toolsmith.capabilities.mcp;

import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.step.ToolChoice;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolResponse;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The meta-tools a planner's MCP client sees instead of thousands of schemas (docs/mcp.md): find tools in
 * brief within a token budget, describe one, call one through the plan-step path, run a step by verb, and
 * keep a per-session active set of tools loaded as first-class MCP tools. Every call acts as the caller whose
 * API key authenticated the request ({@code /mcp} needs the role planner, service or admin).
 */
public class MetaTools {

    static final int DEFAULT_LIMIT = 10;
    static final int MAX_LIMIT = 50;
    static final int DEFAULT_TOKEN_BUDGET = 1_000;
    static final int MIN_TOKEN_BUDGET = 20;
    static final int MAX_TOKEN_BUDGET = 100_000;
    static final int MAX_QUERY_CHARS = 4_096;
    static final int MAX_IDS = ActiveToolSets.MAX_PER_SESSION;

    private final ToolFinder finder;
    private final ToolDescriptions descriptions;
    private final McpSteps steps;
    private final StepAnswers answers;
    private final ActiveToolSets sets;
    private final LoadedTools loaded;
    private final PluginRegistry registry;
    private final SecurityIdentity identity;

    public MetaTools(ToolFinder finder, ToolDescriptions descriptions, McpSteps steps, StepAnswers answers,
            ActiveToolSets sets, LoadedTools loaded, PluginRegistry registry, SecurityIdentity identity) {
        this.finder = finder;
        this.descriptions = descriptions;
        this.steps = steps;
        this.answers = answers;
        this.sets = sets;
        this.loaded = loaded;
        this.registry = registry;
        this.identity = identity;
    }

    /** find_tools' answer: the brief list that fit the budget, and how many ranked tools did not. */
    public record Found(List<ToolChoice> tools, int omitted, int tokenBudget) {
    }

    // The meta-tools' descriptions are in every planner's context (McpMetaToolsListingTest bounds their
    // tokens): each says once what its tool does; an argument is described only where its name does not say it.
    @Tool(name = "find_tools", description = "Search the tools you may call; brief entries, best first, "
            + "within token_budget.")
    Uni<ToolResponse> findTools(
            @ToolArg(description = "the task in plain language") String query,
            @ToolArg(description = "max entries, 1-50, default 10", required = false) Integer limit,
            @ToolArg(name = "token_budget", description = "max answer tokens (cl100k_base), 20-100000, default 1000",
                    required = false) Integer tokenBudget) {
        Optional<String> invalid = query == null || query.isBlank() ? Optional.of("query: must not be empty")
                : query.length() > MAX_QUERY_CHARS ? Optional.of("query: longer than " + MAX_QUERY_CHARS + " characters")
                : outside("limit", limit, 1, MAX_LIMIT).or(() -> outside("token_budget", tokenBudget, MIN_TOKEN_BUDGET,
                        MAX_TOKEN_BUDGET));
        if (invalid.isPresent()) {
            return Uni.createFrom().item(StepAnswers.refusal(invalid.get()));
        }
        int budget = tokenBudget == null ? DEFAULT_TOKEN_BUDGET : tokenBudget;
        String caller = caller();
        return finder.find(query, limit == null ? DEFAULT_LIMIT : limit, caller).map(found -> {
            if (found.error() != null) {
                return StepAnswers.refusal(found.error());
            }
            List<ToolChoice> brief = found.tools();
            int ranked = brief.size();
            BriefLists.Fitted<Found> fitted = BriefLists.fit(brief, budget,
                    kept -> new Found(kept, ranked - kept.size(), budget));
            if (!fitted.fits()) {
                return StepAnswers.refusal("token_budget: " + budget + " tokens cannot hold even an empty answer ("
                        + fitted.tokens() + ")");
            }
            return StepAnswers.response(false, fitted.answer());
        });
    }

    @Tool(name = "describe_tool", description = "A tool's input and output JSON Schema, your policy limits with "
            + "what is left (rate, quota, budget), and health.")
    ToolResponse describeTool(@ToolArg String id) {
        return callable(id).map(plugin -> StepAnswers.response(false, descriptions.describe(plugin)))
                .orElseGet(() -> StepAnswers.refusal(unknown(id)));
    }

    @Tool(name = "call_tool", description = "Run a tool as a plan step (policy, sandbox, schema checks, usage, "
            + "audit). A refusal is an error result naming why.")
    Uni<ToolResponse> callTool(@ToolArg String id,
            @ToolArg(description = "per the tool's input schema", required = false) Map<String, Object> arguments,
            McpConnection connection) {
        String caller = caller();
        // Resolved from the registry, not from what the caller may call: a tool the policy refuses is refused by
        // the step path itself (DENIED, usage recorded, audited), exactly as a plan step naming its verb would be.
        Optional<Plugin> plugin = id == null ? Optional.empty() : registry.byToolId(id);
        if (plugin.isEmpty()) {
            return Uni.createFrom().item(StepAnswers.refusal(unknown(id)));
        }
        return steps.run(connection.id(), plugin.get().verb(), "MCP call_tool " + id, arguments, caller, null)
                .map(answers::of);
    }

    @Tool(name = "run_step", description = "Run a step by verb, even one no tool has: a confident safe match is "
            + "substituted, else PROPOSED or UNRESOLVED with candidates; rerun with the chosen tool_id.")
    Uni<ToolResponse> runStep(@ToolArg(description = "e.g. CONVERT_CURRENCY") String verb,
            @ToolArg(required = false) Map<String, Object> inputs,
            @ToolArg(description = "the step's purpose, for the search", required = false) String description,
            @ToolArg(name = "tool_id", description = "a candidate you chose; learned as the verb's alias",
                    required = false) String toolId,
            McpConnection connection) {
        if (verb == null || verb.isBlank()) {
            return Uni.createFrom().item(StepAnswers.refusal("verb: must not be empty"));
        }
        if (toolId != null && toolId.isBlank()) {
            return Uni.createFrom().item(StepAnswers.refusal("tool_id: must not be empty when given"));
        }
        return steps.run(connection.id(), verb, description, inputs, caller(), toolId).map(answers::of);
    }

    /** load_tools, unload_tools and active_tools answer the session's active set after the change. */
    public record ActiveSet(List<String> active, List<String> changed, List<String> refused) {
    }

    @Tool(name = "load_tools", description = "Add tools to this session's active set: each is then in tools/list "
            + "under its verb, callable directly.")
    ToolResponse loadTools(@ToolArg List<String> ids,
            McpConnection connection) {
        if (ids == null || ids.isEmpty() || ids.size() > MAX_IDS) {
            return StepAnswers.refusal("ids: give 1 to " + MAX_IDS + " tool ids");
        }
        List<String> refused = new ArrayList<>();
        List<String> callable = new ArrayList<>();
        for (String id : ids) {
            Optional<Plugin> plugin = callable(id);
            if (plugin.isEmpty()) {
                refused.add(id + ": " + unknown(id));
            } else {
                loaded.ensureRegistered(plugin.get());
                callable.add(id);
            }
        }
        String set = ActiveToolSets.key(connection.id(), caller());
        ActiveToolSets.Change change = sets.load(set, callable);
        change.refused().forEach(id -> refused.add(id + ": the active set holds at most " + ActiveToolSets.MAX_PER_SESSION
                + " tools; unload some first"));
        if (!change.changed().isEmpty()) {
            loaded.notifyChanged(connection);
        }
        return StepAnswers.response(false, new ActiveSet(sets.active(set), change.changed(), refused));
    }

    @Tool(name = "unload_tools", description = "Remove tools from this session's active set.")
    ToolResponse unloadTools(@ToolArg List<String> ids, McpConnection connection) {
        if (ids == null || ids.isEmpty()) {
            return StepAnswers.refusal("ids: give at least one tool id");
        }
        String set = ActiveToolSets.key(connection.id(), caller());
        List<String> removed = sets.unload(set, ids);
        if (!removed.isEmpty()) {
            loaded.notifyChanged(connection);
        }
        return StepAnswers.response(false, new ActiveSet(sets.active(set), removed, List.of()));
    }

    @Tool(name = "active_tools", description = "This session's active set.")
    ToolResponse activeTools(McpConnection connection) {
        return StepAnswers.response(false, new ActiveSet(sets.active(ActiveToolSets.key(connection.id(), caller())),
                List.of(), List.of()));
    }

    private Optional<Plugin> callable(String id) {
        return id == null ? Optional.empty() : finder.callable(id, caller());
    }

    private String caller() {
        return identity.getPrincipal().getName();
    }

    /** Said alike for a tool that does not exist, is disabled, or is not the caller's: access is not revealed. */
    private static String unknown(String id) {
        return "no tool '" + id + "' that you may call (find_tools lists them)";
    }

    private static Optional<String> outside(String name, Integer value, int min, int max) {
        return value == null || (value >= min && value <= max) ? Optional.empty()
                : Optional.of(name + ": " + value + " is outside " + min + ".." + max);
    }
}
