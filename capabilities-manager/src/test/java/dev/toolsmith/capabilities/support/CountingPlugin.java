package dev.toolsmith.capabilities.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.plugins.InternalPlugin;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** A test-only internal plugin that counts how often it ran per key: proof that a step ran exactly once. */
@ApplicationScoped
public class CountingPlugin implements InternalPlugin {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, AtomicInteger> RUNS = new ConcurrentHashMap<>();

    public static int runs(String key) {
        AtomicInteger count = RUNS.get(key);
        return count == null ? 0 : count.get();
    }

    @Override
    public ToolManifest manifest() {
        try {
            return new ToolManifest("internal.test-counter", "TEST_COUNT", "Test counter", "Counts its runs per key.",
                    ToolSourceType.INTERNAL, "test", "test", List.of(),
                    JSON.readTree("{\"type\": \"object\", \"required\": [\"key\"], \"properties\": {\"key\": {\"type\": \"string\"}}}"),
                    JSON.readTree("{\"type\": \"object\", \"required\": [\"runs\"], \"properties\": {\"runs\": {\"type\": \"integer\"}}}"),
                    Risk.READ_ONLY, null, null, 0, null);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public ObjectNode execute(ObjectNode inputs) {
        int runs = RUNS.computeIfAbsent(inputs.get("key").asText(), k -> new AtomicInteger()).incrementAndGet();
        return JSON.createObjectNode().put("runs", runs);
    }

    @Override
    public List<Example> examples() {
        return List.of(); // no examples: the start-up check runs examples for real, which would count
    }
}
