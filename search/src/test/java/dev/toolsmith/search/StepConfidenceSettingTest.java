package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The step-confidence setting as an operator writes it: either name in any case, anything else refused by name. */
class StepConfidenceSettingTest {

    @Test
    void eitherNameIsReadInAnyCaseAndWrittenBackLowerCase() {
        assertThat(StepConfidence.parse("s", "standard")).isEqualTo(StepConfidence.STANDARD);
        assertThat(StepConfidence.parse("s", " CAUTIOUS\n")).isEqualTo(StepConfidence.CAUTIOUS);
        assertThat(StepConfidence.CAUTIOUS.value()).isEqualTo("cautious");
    }

    @Test
    void anythingElseIsRefusedNamingTheSettingAndTheValue() {
        for (String bad : new String[] {"careful", "", "standard,cautious", "cautious\u0000", "0.1"}) {
            assertThatThrownBy(() -> StepConfidence.parse("toolsmith.search.step-confidence", bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("toolsmith.search.step-confidence must be standard or cautious");
        }
        assertThatThrownBy(() -> StepConfidence.parse("x", null)).hasMessageContaining("got 'null'");
    }
}
