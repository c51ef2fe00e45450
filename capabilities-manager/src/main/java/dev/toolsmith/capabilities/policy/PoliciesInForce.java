package dev.toolsmith.capabilities.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The usage policy a plugin runs under, read from the registry's current snapshot. The registry is
 * replaced whole after every registration (a new {@code plugin-built} with a new policy) and on its
 * refresh schedule, so a changed policy is in force without a restart; the parsed form is cached per
 * snapshot object, so the hot path does not parse JSON.
 */
@ApplicationScoped
public class PoliciesInForce {

    private record Parsed(JsonNode source, UsagePolicy policy) {
    }

    private final ObjectMapper mapper;
    private final Map<String, Parsed> cache = new ConcurrentHashMap<>();

    public PoliciesInForce(ContractCodec codec) {
        this.mapper = codec.mapper();
    }

    /** The plugin's policy; a plugin registered without one is unrestricted. */
    public UsagePolicy of(Plugin plugin) {
        JsonNode source = plugin.policy();
        if (source == null || source.isNull() || source.isMissingNode()) {
            return UsagePolicy.unrestricted();
        }
        Parsed cached = cache.get(plugin.toolId());
        if (cached != null && cached.source() == source) {
            return cached.policy();
        }
        UsagePolicy parsed = parse(plugin.toolId(), source);
        cache.put(plugin.toolId(), new Parsed(source, parsed));
        return parsed;
    }

    private UsagePolicy parse(String toolId, JsonNode source) {
        try {
            return mapper.treeToValue(source, UsagePolicy.class);
        } catch (JsonProcessingException e) {
            // The policy was validated against its schema when the event arrived; this is a stored row gone bad.
            throw new IllegalStateException("the stored policy of plugin " + toolId + " is unreadable: "
                    + e.getOriginalMessage(), e);
        }
    }
}
