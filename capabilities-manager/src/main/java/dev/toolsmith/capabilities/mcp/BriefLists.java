package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.toolsmith.capabilities.resolution.BriefDescriptions;
import dev.toolsmith.contracts.step.ToolChoice;
import java.util.List;
import java.util.function.Function;

/**
 * Keeps a brief list ({@link ToolChoice}s, already brief: {@link BriefDescriptions}) within a token budget. Tokens
 * are counted in cl100k_base with jtokkit, the encoding the search library's budgets ({@code ToolTokens},
 * {@code POST /tools/select}) count in, over the exact JSON text the planner receives.
 */
public final class BriefLists {

    // instants as ISO-8601 text, as the structured content (serialised by the MCP library) writes them
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private BriefLists() {
    }

    /** The tokens of {@code text} in cl100k_base. */
    public static int tokens(String text) {
        return BriefDescriptions.tokens(text);
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
     * receives, costs at most {@code budget} tokens; with the count it costs. An answer's tokens grow with each entry
     * it holds, so the prefix is found by bisection: about log2(n) + 2 encodings of the answer instead of one per
     * entry (each encoding is of the whole answer: token counts of JSON pieces do not add up exactly).
     */
    public static <T> Fitted<T> fit(List<ToolChoice> ranked, int budget, Function<List<ToolChoice>, T> envelope) {
        T empty = envelope.apply(List.of());
        int emptyCost = tokens(json(empty));
        if (emptyCost > budget) {
            return new Fitted<>(empty, emptyCost, ranked.size(), false);
        }
        Priced<T> best = new Priced<>(0, empty, emptyCost);
        Priced<T> all = priced(ranked, ranked.size(), envelope);
        if (all.tokens() <= budget) {
            best = all;
        } else {
            int fits = 0; // a prefix of this length fits
            int tooLong = ranked.size(); // a prefix of this length does not
            while (tooLong - fits > 1) {
                int mid = (fits + tooLong) >>> 1;
                Priced<T> candidate = priced(ranked, mid, envelope);
                if (candidate.tokens() <= budget) {
                    fits = mid;
                    best = candidate;
                } else {
                    tooLong = mid;
                }
            }
        }
        return new Fitted<>(best.answer(), best.tokens(), ranked.size() - best.entries(), true);
    }

    private static <T> Priced<T> priced(List<ToolChoice> ranked, int entries, Function<List<ToolChoice>, T> envelope) {
        T answer = envelope.apply(List.copyOf(ranked.subList(0, entries)));
        return new Priced<>(entries, answer, tokens(json(answer)));
    }

    private record Priced<T>(int entries, T answer, int tokens) {
    }

    /** A budgeted answer: what it costs and how many entries did not fit; {@code fits} false if not even empty. */
    public record Fitted<T>(T answer, int tokens, int omitted, boolean fits) {
    }
}
