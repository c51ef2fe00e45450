package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.search.embed.EmbeddingModelChoice;
import dev.toolsmith.search.embed.OnnxTextEmbedder;
import org.junit.jupiter.api.Test;

class OnnxTextEmbedderTest {

    @Test
    void aClosedEmbedderRefusesWithAMessageInsteadOfReachingFreedNativeMemory() {
        OnnxTextEmbedder embedder = OnnxTextEmbedder.create(EmbeddingModelChoice.ALL_MINILM_L6_V2_Q);
        assertThat(embedder.embedQuery("convert currency")).hasSize(embedder.dimension());

        embedder.close();
        embedder.close(); // twice is harmless

        assertThatThrownBy(() -> embedder.embedQuery("convert currency"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("all-minilm-l6-v2-q is closed");
        assertThatThrownBy(() -> embedder.embedPassages(java.util.List.of("convert currency", "send an email")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("all-minilm-l6-v2-q is closed");
        assertThat(embedder.embedQuery(" ")).as("a blank text needs no model").hasSize(embedder.dimension());
    }
}
