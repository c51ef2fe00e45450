package dev.toolsmith.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolsmith.search.embed.CachingTextEmbedder;
import dev.toolsmith.search.embed.TextEmbedder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CachingTextEmbedderTest {

    /** Embeds a text as {length, calls so far}, counting the calls. */
    private static final class CountingEmbedder implements TextEmbedder {
        final AtomicInteger queries = new AtomicInteger();
        final AtomicInteger passages = new AtomicInteger();

        @Override
        public String modelId() {
            return "counting";
        }

        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public float[] embedQuery(String text) {
            return new float[] {text.length(), queries.incrementAndGet()};
        }

        @Override
        public float[] embedPassage(String text) {
            return new float[] {text.length(), passages.incrementAndGet()};
        }
    }

    @Test
    void aRepeatedQueryIsEmbeddedOnceAndPassagesAlways() {
        CountingEmbedder models = new CountingEmbedder();
        CachingTextEmbedder cached = new CachingTextEmbedder(models, 10);

        float[] first = cached.embedQuery("convert currency");
        first[0] = -1; // a caller scribbling on its copy
        float[] again = cached.embedQuery("convert currency");
        cached.embedPassage("a tool");
        cached.embedPassage("a tool");

        assertThat(again).containsExactly(16f, 1f);
        assertThat(models.queries).hasValue(1);
        assertThat(models.passages).hasValue(2);
        assertThat(cached.modelId()).isEqualTo("counting");
        assertThat(cached.cachedQueries()).isEqualTo(1);
    }

    @Test
    void holdsAtMostTheConfiguredNumberOfQueries() {
        CountingEmbedder models = new CountingEmbedder();
        CachingTextEmbedder cached = new CachingTextEmbedder(models, 3);
        for (int i = 0; i < 100; i++) {
            cached.embedQuery("query " + i);
        }
        assertThat(cached.cachedQueries()).isLessThanOrEqualTo(3);
        assertThatThrownBy(() -> new CachingTextEmbedder(models, 0)).hasMessageContaining("at least 1");
    }
}
