package dev.toolsmith.search;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.embed.TextEmbedder;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes a tool's {@link ToolVectors} with an embedding model (tens of milliseconds a tool: store the
 * result). Thread-safe.
 */
public final class ToolVectorizer {

    private final TextEmbedder embedder;

    public ToolVectorizer(TextEmbedder embedder) {
        this.embedder = embedder;
    }

    public TextEmbedder embedder() {
        return embedder;
    }

    public ToolVectors vectorize(ToolManifest tool) {
        ToolText text = ToolText.of(tool);
        return new ToolVectors(embedder.modelId(), embedder.embedPassage(text.passage()),
                embedder.embedPassage(text.title()));
    }

    /** Vectorises many tools, using every core when the embedder can. */
    public List<ToolVectors> vectorizeAll(List<ToolManifest> tools) {
        List<String> texts = new ArrayList<>(tools.size() * 2);
        for (ToolManifest tool : tools) {
            ToolText text = ToolText.of(tool);
            texts.add(text.passage());
            texts.add(text.title());
        }
        List<float[]> vectors = embedder.embedPassages(texts);
        List<ToolVectors> out = new ArrayList<>(tools.size());
        for (int i = 0; i < tools.size(); i++) {
            out.add(new ToolVectors(embedder.modelId(), vectors.get(2 * i), vectors.get(2 * i + 1)));
        }
        return out;
    }
}
