package dev.toolsmith.capabilities.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.contracts.tool.Risk;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * find_tools' budget: the longest prefix of the ranked list whose answer, as sent, fits the budget; and a brief
 * entry's description cut to its token cap at a word boundary.
 */
class BriefListsTest {

    private static final List<ToolChoice> RANKED = ranked(12);

    private static List<ToolChoice> ranked(int n) {
        List<ToolChoice> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new ToolChoice("api-" + i + ":op", "DO_THING_" + i, "Does thing number " + i
                    + (i % 3 == 0 ? " with a longer description of what it does to the input" : "") + ".",
                    Risk.READ_ONLY, List.of("a" + i, "b"), 0.9 - i * 0.01));
        }
        return out;
    }

    private static int cost(int entries) {
        return BriefLists.tokens(BriefLists.json(new MetaTools.Found(RANKED.subList(0, entries), 0, 0)));
    }

    @Test
    void everyBudgetGetsTheLongestPrefixThatFitsAndNeverMore() {
        for (int budget = cost(0); budget <= cost(RANKED.size()) + 5; budget += 7) {
            int b = budget;
            BriefLists.Fitted<MetaTools.Found> fitted = BriefLists.fit(RANKED, b,
                    kept -> new MetaTools.Found(kept, 0, 0));
            int kept = fitted.answer().tools().size();
            assertThat(fitted.fits()).isTrue();
            assertThat(fitted.tokens()).as("budget %d", b).isLessThanOrEqualTo(b).isEqualTo(cost(kept));
            assertThat(fitted.omitted()).isEqualTo(RANKED.size() - kept);
            if (kept < RANKED.size()) {
                assertThat(cost(kept + 1)).as("one more entry would not fit %d", b).isGreaterThan(b);
            }
            assertThat(fitted.answer().tools()).isEqualTo(RANKED.subList(0, kept));
        }
    }

    @Test
    void aBudgetBelowTheEmptyAnswerDoesNotFit() {
        BriefLists.Fitted<MetaTools.Found> fitted = BriefLists.fit(RANKED, cost(0) - 1, kept -> new MetaTools.Found(kept, 0, 0));
        assertThat(fitted.fits()).isFalse();
        assertThat(fitted.omitted()).isEqualTo(RANKED.size());
    }

    /** A Gorilla-HF model card's first sentence, as the search returns it (140 characters, already cut once). */
    private static final String LONG = "A Vision Transformer model for image classification, pretrained on ImageNet-21k "
            + "and fine-tuned on ImageNet-1k with augmentations and regula…";

    @Test
    void aLongDescriptionIsCutAtAWordBoundaryWithinItsTokenCap() {
        String cut = BriefLists.capped(LONG, BriefLists.DESCRIPTION_TOKENS);
        assertThat(BriefLists.tokens(LONG)).isGreaterThan(BriefLists.DESCRIPTION_TOKENS);
        assertThat(cut).endsWith("…");
        assertThat(BriefLists.tokens(cut)).isLessThanOrEqualTo(BriefLists.DESCRIPTION_TOKENS);
        String kept = cut.substring(0, cut.length() - 1);
        assertThat(LONG).startsWith(kept);
        // at a word boundary: the original goes on with a space (or punctuation the cut dropped before one)
        String rest = LONG.substring(kept.length());
        assertThat(rest).matches("[,;:.]?\\s.*");
        // and it is the longest such prefix: one more word would not fit
        Matcher nextWord = Pattern.compile("^[,;:.]?\\s+\\S+").matcher(rest);
        assertThat(nextWord.find()).isTrue();
        String oneMore = kept + rest.substring(0, nextWord.end());
        assertThat(BriefLists.tokens(oneMore.replaceAll("[,;:.…]+$", "") + "…"))
                .isGreaterThan(BriefLists.DESCRIPTION_TOKENS);
        assertThat(cut).isEqualTo("A Vision Transformer model for image classification, pretrained on ImageNet-21k "
                + "and fine-tuned…");
    }

    @Test
    void aDescriptionWithinTheCapIsKeptWhole() {
        String shortOne = "A depth estimation model fine-tuned on the DIODE dataset.";
        assertThat(BriefLists.capped(shortOne, BriefLists.DESCRIPTION_TOKENS)).isEqualTo(shortOne);
        assertThat(BriefLists.capped(null, BriefLists.DESCRIPTION_TOKENS)).isNull();
    }

    @Test
    void aFirstWordLongerThanTheCapIsCutWithinIt() {
        String url = "https://example.org/" + "very-long-path-segment/".repeat(10);
        String cut = BriefLists.capped(url, 8);
        assertThat(cut).endsWith("…");
        assertThat(url).startsWith(cut.substring(0, cut.length() - 1));
        assertThat(BriefLists.tokens(cut)).isLessThanOrEqualTo(8);
        assertThat(BriefLists.tokens(url.substring(0, cut.length()) + "…")).isGreaterThan(8);
    }

    @Test
    void aBriefEntryOfAGorillaCardStaysUnderSixtyTokens() {
        ToolChoice card = new ToolChoice("google/vit-base-patch16-224", "GOOGLE_VIT_BASE_PATCH16_224", LONG,
                Risk.READ_ONLY, List.of(), 0.512);
        ToolChoice brief = BriefLists.brief(card);
        assertThat(BriefLists.tokens(BriefLists.json(card))).isGreaterThan(60);
        assertThat(BriefLists.tokens(brief.description())).isLessThanOrEqualTo(BriefLists.DESCRIPTION_TOKENS);
        assertThat(BriefLists.tokens(BriefLists.json(brief))).isLessThanOrEqualTo(60);
        assertThat(brief).usingRecursiveComparison().ignoringFields("description").isEqualTo(card);
    }

    @Test
    void instantsAreWrittenAsIsoTextLikeTheStructuredContent() {
        assertThat(BriefLists.json(java.util.Map.of("lastProbeAt", java.time.Instant.parse("2026-11-27T15:30:00Z"))))
                .isEqualTo("{\"lastProbeAt\":\"2026-11-27T15:30:00Z\"}");
    }
}
