package dev.toolsmith.librarian.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import dev.toolsmith.search.embed.TextEmbedder;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The librarian's index settings: the query cache and the cascade switch reach the index it serves. */
class ToolIndexProducerTest {

    private static final TextEmbedder MODELS = EnsembleTextEmbedder.defaultEnsemble();

    @AfterAll
    static void close() {
        MODELS.close();
    }

    @Test
    void theCascadeIsOnByDefault() throws Exception {
        ConfigProperty setting = ToolIndexProducer.class.getDeclaredMethod("toolIndex", int.class, boolean.class)
                .getParameters()[1].getAnnotation(ConfigProperty.class);
        assertThat(setting.name()).isEqualTo("toolsmith.search.cascade.enabled");
        assertThat(setting.defaultValue()).isEqualTo("true");
        try (ToolIndex index = ToolIndexProducer.toolIndex(MODELS, 0, true)) {
            assertThat(index.cascade()).isTrue();
        }
    }

    @Test
    void theCascadeCanBeTurnedOff() {
        try (ToolIndex index = ToolIndexProducer.toolIndex(MODELS, 16, false)) {
            assertThat(index.cascade()).isFalse();
        }
    }

    @Test
    void aNegativeCacheSizeIsRefused() {
        assertThatThrownBy(() -> ToolIndexProducer.toolIndex(MODELS, -1, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("toolsmith.search.query-cache-size");
    }
}
