package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolsmith.contracts.step.ToolChoice;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a brief list ({@link ToolChoice}s) within a token budget. Tokens are counted in
 * cl100k_base with jtokkit, the encoding the search library's budgets ({@code ToolTokens}, {@code POST
 * /tools/select}) count in, over the exact JSON text the planner receives.
 */
public final class BriefLists {

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

    /**
     * The longest prefix of {@code ranked} that, wrapped by {@code envelope} into the answer the planner
     * receives, costs at most {@code budget} tokens; with the count it costs.
     */
    public static <T> Fitted<T> fit(List<ToolChoice> ranked, int budget, java.util.function.Function<List<ToolChoice>, T> envelope) {
        List<ToolChoice> kept = new ArrayList<>();
        T answer = envelope.apply(List.of());
        int used = tokens(json(answer));
        if (used > budget) {
            return new Fitted<>(answer, used, ranked.size(), false);
        }
        for (ToolChoice tool : ranked) {
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
