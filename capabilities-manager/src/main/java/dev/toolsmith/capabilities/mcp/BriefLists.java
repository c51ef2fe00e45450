package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.search.SearchHit;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns search hits into brief entries and keeps a brief list within a token budget. Tokens are counted in
 * cl100k_base with jtokkit, the encoding the search library's budgets ({@code ToolTokens}, {@code POST
 * /tools/select}) count in, over the exact JSON text the planner receives.
 */
public final class BriefLists {

    /** A one-line description is cut at its first sentence, and at this many characters at most. */
    static final int DESCRIPTION_CHARS = 140;

    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    private BriefLists() {
    }

    /** The tokens of {@code text} in cl100k_base. */
    public static int tokens(String text) {
        return text == null ? 0 : CL100K.countTokens(text);
    }

    /** The JSON text an object is sent as. */
    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** A hit in brief; the required parameter names come from the registered plugin's input schema. */
    public static BriefTool of(SearchHit hit, Plugin plugin) {
        return new BriefTool(hit.toolId(), plugin.verb(), oneLine(hit.description() != null ? hit.description()
                : plugin.manifest().description()), plugin.risk(), required(plugin.manifest().inputSchema()),
                Math.round(hit.confidence() * 1000) / 1000.0);
    }

    /** The names a tool's input schema requires, in its order. */
    public static List<String> required(JsonNode inputSchema) {
        List<String> names = new ArrayList<>();
        if (inputSchema != null && inputSchema.path("required").isArray()) {
            inputSchema.path("required").forEach(n -> names.add(n.asText()));
        }
        return names;
    }

    /** The first sentence (or line) of a description, cut to {@link #DESCRIPTION_CHARS}. */
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

    /**
     * The longest prefix of {@code ranked} that, wrapped by {@code envelope} into the answer the planner
     * receives, costs at most {@code budget} tokens; with the count it costs.
     */
    public static <T> Fitted<T> fit(List<BriefTool> ranked, int budget, java.util.function.Function<List<BriefTool>, T> envelope) {
        List<BriefTool> kept = new ArrayList<>();
        T answer = envelope.apply(List.of());
        int used = tokens(json(answer));
        if (used > budget) {
            return new Fitted<>(answer, used, ranked.size(), false);
        }
        for (BriefTool tool : ranked) {
            kept.add(tool);
            T candidate = envelope.apply(List.copyOf(kept));
            int cost = tokens(json(candidate));
            if (cost > budget) {
                kept.remove(kept.size() - 1);
                break;
            }
            answer = candidate;
            used = cost;
        }
        return new Fitted<>(answer, used, ranked.size() - kept.size(), true);
    }

    /** A budgeted answer: what it costs and how many entries did not fit; {@code fits} false if not even empty. */
    public record Fitted<T>(T answer, int tokens, int omitted, boolean fits) {
    }
}
