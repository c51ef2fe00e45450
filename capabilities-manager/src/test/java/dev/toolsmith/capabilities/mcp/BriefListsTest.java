package dev.toolsmith.capabilities.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.contracts.tool.Risk;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * find_tools' budget: the longest prefix of the ranked list whose answer, as sent, fits the budget (a brief entry's
 * description: BriefDescriptionsTest).
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

    @Test
    void instantsAreWrittenAsIsoTextLikeTheStructuredContent() {
        assertThat(BriefLists.json(java.util.Map.of("lastProbeAt", java.time.Instant.parse("2026-11-27T15:30:00Z"))))
                .isEqualTo("{\"lastProbeAt\":\"2026-11-27T15:30:00Z\"}");
    }
}
