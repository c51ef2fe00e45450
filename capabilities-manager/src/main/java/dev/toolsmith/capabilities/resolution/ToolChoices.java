package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.capabilities.policy.CallerAccess;
import dev.toolsmith.capabilities.policy.PoliciesInForce;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.step.ToolChoice;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Search hits in brief, as a planner chooses from ({@link ToolChoice}): only tools that are registered here, not
 * disabled, and that the caller's policy lets it call; the required input names come from the registered
 * manifest, the description is its first sentence within a token cap ({@link BriefDescriptions}). find_tools and a
 * step result's choices are both made here, so a planner sees a tool the same way on every door.
 */
@ApplicationScoped
public class ToolChoices {

    private final PluginRegistry registry;
    private final PoliciesInForce policies;

    public ToolChoices(PluginRegistry registry, PoliciesInForce policies) {
        this.registry = registry;
        this.policies = policies;
    }

    public List<ToolChoice> of(List<SearchHit> hits, String caller) {
        return hits.stream().map(hit -> of(hit, caller)).flatMap(Optional::stream).toList();
    }

    /** The hit in brief if {@code caller} may call it here; empty otherwise. */
    public Optional<ToolChoice> of(SearchHit hit, String caller) {
        return callable(hit.toolId(), caller).map(plugin -> new ToolChoice(hit.toolId(), plugin.verb(),
                BriefDescriptions.of(hit.description() != null ? hit.description() : plugin.manifest().description()),
                plugin.risk(),
                required(plugin.manifest().inputSchema()), Math.round(hit.confidence() * 1000) / 1000.0));
    }

    /** The registered plugin with this id if it serves and {@code caller} may call it. */
    public Optional<Plugin> callable(String toolId, String caller) {
        return toolId == null ? Optional.empty() : registry.byToolId(toolId).filter(Plugin::serves)
                .filter(plugin -> CallerAccess.refusal(plugin.toolId(), policies.of(plugin), caller).isEmpty());
    }

    /** The names a tool's input schema requires, in its order. */
    static List<String> required(JsonNode inputSchema) {
        List<String> names = new ArrayList<>();
        if (inputSchema != null && inputSchema.path("required").isArray()) {
            inputSchema.path("required").forEach(n -> names.add(n.asText()));
        }
        return names;
    }
}
