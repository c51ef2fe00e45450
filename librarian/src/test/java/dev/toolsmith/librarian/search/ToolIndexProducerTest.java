package dev.toolsmith.librarian.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.search.StepConfidence;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.embed.TextEmbedder;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The librarian's index settings: the query cache and the cascade switch reach the index it serves. No search
 * runs here, so the index gets a constant embedder: loading the real models a second time in the module's test
 * JVM fails (their native tokenizer is already loaded by the Quarkus tests' class loader); CascadeTest in the
 * search module shows what the switch does to a search.
 */
class ToolIndexProducerTest {

    private static final TextEmbedder MODELS = new TextEmbedder() {
        @Override
        public String modelId() {
            return "constant-test-vectors";
        }

        @Override
        public int dimension() {
            return 4;
        }

        @Override
        public float[] embedQuery(String text) {
            return new float[] {1, 0, 0, 0};
        }

        @Override
        public float[] embedPassage(String text) {
            return new float[] {1, 0, 0, 0};
        }
    };

    @Test
    void theCascadeIsOnByDefault() throws Exception {
        ConfigProperty setting = ToolIndexProducer.class.getDeclaredMethod("toolIndex", int.class, boolean.class, String.class)
                .getParameters()[1].getAnnotation(ConfigProperty.class);
        assertThat(setting.name()).isEqualTo("toolsmith.search.cascade.enabled");
        assertThat(setting.defaultValue()).isEqualTo("true");
        try (ToolIndex index = ToolIndexProducer.toolIndex(MODELS, 0, true, StepConfidence.STANDARD)) {
            assertThat(index.cascade()).isTrue();
        }
    }

    @Test
    void theCascadeCanBeTurnedOff() {
        try (ToolIndex index = ToolIndexProducer.toolIndex(MODELS, 16, false, StepConfidence.STANDARD)) {
            assertThat(index.cascade()).isFalse();
        }
    }

    @Test
    void aNegativeCacheSizeIsRefused() {
        assertThatThrownBy(() -> ToolIndexProducer.toolIndex(MODELS, -1, true, StepConfidence.STANDARD))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolsmith.search.query-cache-size");
    }

    @Test
    void stepConfidenceIsStandardByDefaultAndCautiousOnRequest() throws Exception {
        ConfigProperty setting = ToolIndexProducer.class.getDeclaredMethod("toolIndex", int.class, boolean.class, String.class)
                .getParameters()[2].getAnnotation(ConfigProperty.class);
        assertThat(setting.name()).isEqualTo("toolsmith.search.step-confidence");
        assertThat(StepConfidence.parse(setting.name(), setting.defaultValue())).isEqualTo(StepConfidence.STANDARD);
        try (ToolIndex index = ToolIndexProducer.toolIndex(MODELS, 16, true, StepConfidence.parse(setting.name(), " Cautious "))) {
            assertThat(index.stepConfidence()).isEqualTo(StepConfidence.CAUTIOUS);
        }
    }

    @Test
    void anUnknownStepConfidenceStopsTheStartNamingTheSetting() {
        // refused before the models load: the producer's own entry point, with a typo
        assertThatThrownBy(() -> new ToolIndexProducer().toolIndex(16, true, "careful"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolsmith.search.step-confidence")
                .hasMessageContaining("standard or cautious")
                .hasMessageContaining("careful");
        assertThatThrownBy(() -> new ToolIndexProducer().toolIndex(16, true, ""))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolsmith.search.step-confidence");
    }
}
