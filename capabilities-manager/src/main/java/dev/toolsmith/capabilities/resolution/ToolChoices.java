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
 * manifest, the description is its first sentence.
 */
@ApplicationScoped
public class ToolChoices {

    /** A one-line description is cut at its first sentence, and at this many characters at most. */
    static final int DESCRIPTION_CHARS = 140;

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
                oneLine(hit.description() != null ? hit.description() : plugin.manifest().description()), plugin.risk(),
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

    /** The first sentence of a description, cut to {@link #DESCRIPTION_CHARS}. */
    static String oneLine(String description) {
        if (description == null) {
            return null;
        }
        String text = description.strip().replaceAll("\\s+", " ");
        int end = text.length();
        for (int i = 0; i < text.length() - 1; i++) {
            char c = text.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && text.charAt(i + 1) == ' ') {
                end = i + 1;
                break;
            }
        }
        text = text.substring(0, end);
        return text.length() <= DESCRIPTION_CHARS ? text : text.substring(0, DESCRIPTION_CHARS - 1).stripTrailing() + "…";
    }
}
