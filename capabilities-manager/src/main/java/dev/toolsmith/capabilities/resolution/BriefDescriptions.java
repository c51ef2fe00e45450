package dev.toolsmith.capabilities.resolution;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * A tool's description as every brief entry carries it ({@code ToolChoice}: find_tools over MCP, and the choices of
 * a PROPOSED or UNRESOLVED step result on REST, Kafka and MCP): its first sentence, cut to
 * {@link #DESCRIPTION_TOKENS} cl100k_base tokens at a word boundary with an ellipsis. Tokens are counted with jtokkit
 * in cl100k_base, the encoding the search library's budgets and find_tools' budget count in.
 */
public final class BriefDescriptions {

    /**
     * A brief description costs at most this many tokens, its ellipsis included. Chosen on the Gorilla-HF catalog
     * (907 model cards, docs/mcp.md), where an entry's id and verb already take about 35 tokens: 20 keeps what a card
     * says the model does ("Stable Diffusion v2 is a diffusion-based text-to-image generation model that can generate
     * and…") and brings the mean entry under 60 tokens; a shorter cap starts cutting the task words. The search ranks
     * on the whole description, so the cap changes only the text, never the order.
     */
    public static final int DESCRIPTION_TOKENS = 20;

    private static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    private static final String ELLIPSIS = "…";

    private BriefDescriptions() {
    }

    /** {@code description}'s first sentence within {@link #DESCRIPTION_TOKENS}; null for null. */
    public static String of(String description) {
        return capped(firstSentence(description), DESCRIPTION_TOKENS);
    }

    /** The tokens of {@code text} in cl100k_base. */
    public static int tokens(String text) {
        return text == null ? 0 : CL100K.countTokens(text);
    }

    /** Whitespace collapsed, up to the first sentence end ({@code .}, {@code !} or {@code ?} before a space). */
    static String firstSentence(String description) {
        if (description == null) {
            return null;
        }
        String text = description.strip().replaceAll("\\s+", " ");
        for (int i = 0; i < text.length() - 1; i++) {
            char c = text.charAt(i);
            if ((c == '.' || c == '!' || c == '?') && text.charAt(i + 1) == ' ') {
                return text.substring(0, i + 1);
            }
        }
        return text;
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
}
