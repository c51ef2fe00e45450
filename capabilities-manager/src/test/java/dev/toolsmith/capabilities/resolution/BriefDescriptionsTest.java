package dev.toolsmith.capabilities.resolution;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.contracts.tool.Risk;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A brief entry's description, the same for find_tools and a step result's choices: the first sentence, cut to its
 * token cap at a word boundary.
 */
class BriefDescriptionsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The opening 140 characters of a Gorilla-HF model card's first sentence. */
    private static final String LONG = "A Vision Transformer model for image classification, pretrained on ImageNet-21k "
            + "and fine-tuned on ImageNet-1k with augmentations and regula…";

    @Test
    void aLongDescriptionIsCutAtAWordBoundaryWithinItsTokenCap() {
        String cut = BriefDescriptions.capped(LONG, BriefDescriptions.DESCRIPTION_TOKENS);
        assertThat(BriefDescriptions.tokens(LONG)).isGreaterThan(BriefDescriptions.DESCRIPTION_TOKENS);
        assertThat(cut).endsWith("…");
        assertThat(BriefDescriptions.tokens(cut)).isLessThanOrEqualTo(BriefDescriptions.DESCRIPTION_TOKENS);
        String kept = cut.substring(0, cut.length() - 1);
        assertThat(LONG).startsWith(kept);
        // at a word boundary: the original goes on with a space (or punctuation the cut dropped before one)
        String rest = LONG.substring(kept.length());
        assertThat(rest).matches("[,;:.]?\\s.*");
        // and it is the longest such prefix: one more word would not fit
        Matcher nextWord = Pattern.compile("^[,;:.]?\\s+\\S+").matcher(rest);
        assertThat(nextWord.find()).isTrue();
        String oneMore = kept + rest.substring(0, nextWord.end());
        assertThat(BriefDescriptions.tokens(oneMore.replaceAll("[,;:.…]+$", "") + "…"))
                .isGreaterThan(BriefDescriptions.DESCRIPTION_TOKENS);
        assertThat(cut).isEqualTo("A Vision Transformer model for image classification, pretrained on ImageNet-21k "
                + "and fine-tuned…");
    }

    @Test
    void aDescriptionWithinTheCapIsKeptWhole() {
        String shortOne = "A depth estimation model fine-tuned on the DIODE dataset.";
        assertThat(BriefDescriptions.capped(shortOne, BriefDescriptions.DESCRIPTION_TOKENS)).isEqualTo(shortOne);
        assertThat(BriefDescriptions.capped(null, BriefDescriptions.DESCRIPTION_TOKENS)).isNull();
    }

    @Test
    void aFirstWordLongerThanTheCapIsCutWithinIt() {
        String url = "https://example.org/" + "very-long-path-segment/".repeat(10);
        String cut = BriefDescriptions.capped(url, 8);
        assertThat(cut).endsWith("…");
        assertThat(url).startsWith(cut.substring(0, cut.length() - 1));
        assertThat(BriefDescriptions.tokens(cut)).isLessThanOrEqualTo(8);
        assertThat(BriefDescriptions.tokens(url.substring(0, cut.length()) + "…")).isGreaterThan(8);
    }

    @Test
    void aBriefEntryOfAGorillaCardStaysUnderSixtyTokens() throws Exception {
        String card = LONG.substring(0, LONG.length() - 1) + "ization. It was introduced in the paper An Image is Worth "
                + "16x16 Words by Dosovitskiy et al.";
        ToolChoice brief = new ToolChoice("google/vit-base-patch16-224", "GOOGLE_VIT_BASE_PATCH16_224",
                BriefDescriptions.of(card), Risk.READ_ONLY, List.of(), 0.512);
        assertThat(brief.description()).isEqualTo(BriefDescriptions.capped(LONG, BriefDescriptions.DESCRIPTION_TOKENS));
        assertThat(BriefDescriptions.tokens(JSON.writeValueAsString(brief))).isLessThanOrEqualTo(60);
    }

    @Test
    void theFirstSentenceIsKeptWithWhitespaceCollapsed() {
        assertThat(BriefDescriptions.of("  Converts an amount.\n  Rates   come from the ECB. ")).isEqualTo(
                "Converts an amount.");
        assertThat(BriefDescriptions.of("Version 2.1 of the v2.0 API")).isEqualTo("Version 2.1 of the v2.0 API");
        assertThat(BriefDescriptions.of(null)).isNull();
    }
}
