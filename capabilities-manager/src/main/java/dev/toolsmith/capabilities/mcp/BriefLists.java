package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolsmith.contracts.step.ToolChoice;
import java.util.List;
import java.util.function.Function;

/**
 * Keeps a brief list ({@link ToolChoice}s) within a token budget. Tokens are counted in
 * cl100k_base with jtokkit, the encoding the search library's budgets ({@code ToolTokens}, {@code POST
 * /tools/select}) count in, over the exact JSON text the planner receives.
 */
public final class BriefLists {

    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    // instants as ISO-8601 text, as the structured content (serialised by the MCP library) writes them
    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules()
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    private BriefLists() {
    }

    /**
     * A brief entry's one-line description costs at most this many tokens, its ellipsis included. Chosen on the
     * Gorilla-HF catalog (907 model cards, docs/mcp.md), where an entry's id and verb already take about 35 tokens:
     * 20 keeps what a card says the model does ("Stable Diffusion v2 is a diffusion-based text-to-image generation
     * model that can generate and…") and brings the mean entry under 60 tokens; a shorter cap starts cutting the
     * task words. The search ranks on the whole description, so the cap changes only the text, never the order.
     */
    public static final int DESCRIPTION_TOKENS = 20;

    private static final String ELLIPSIS = "…";

    /** {@code choice} as find_tools sends it: its description cut to {@link #DESCRIPTION_TOKENS}. */
    public static ToolChoice brief(ToolChoice choice) {
        String description = capped(choice.description(), DESCRIPTION_TOKENS);
        return description == null || description.equals(choice.description()) ? choice
                : new ToolChoice(choice.id(), choice.verb(), description, choice.risk(), choice.required(),
                        choice.confidence());
    }

    /**
     * {@code text} if it costs at most {@code maxTokens}; otherwise its longest prefix of whole words that, with
     * trailing punctuation dropped and an ellipsis added, does. A first word too long on its own is cut within it.
     */
    static String capped(String text, int maxTokens) {
        if (text == null || tokens(text) <= maxTokens) {
            return text;
        }
        String[] words = text.strip().split("\\s+");
        String kept = null;
        StringBuilder prefix = new StringBuilder();
        for (String word : words) {
            if (!prefix.isEmpty()) {
                prefix.append(' ');
            }
            prefix.append(word);
            String candidate = withEllipsis(prefix.toString());
            if (tokens(candidate) > maxTokens) {
                break;
            }
            kept = candidate;
        }
        return kept != null ? kept : cutWithin(words[0], maxTokens);
    }

    private static String withEllipsis(String prefix) {
        return prefix.replaceAll("[\\s,;:.…(\\[-]+$", "") + ELLIPSIS;
    }

    /** The longest character prefix of one word that fits with its ellipsis (e.g. a description that is one URL). */
    private static String cutWithin(String word, int maxTokens) {
        int fits = 0;
        int tooLong = word.length();
        while (tooLong - fits > 1) {
            int mid = (fits + tooLong) >>> 1;
            if (tokens(word.substring(0, mid) + ELLIPSIS) <= maxTokens) {
                fits = mid;
            } else {
                tooLong = mid;
            }
        }
        return word.substring(0, fits) + ELLIPSIS;
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
