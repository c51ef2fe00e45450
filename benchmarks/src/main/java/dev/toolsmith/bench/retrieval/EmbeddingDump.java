package dev.toolsmith.bench.retrieval;

import dev.toolsmith.search.embed.EmbeddingModelChoice;
import dev.toolsmith.search.embed.OnnxTextEmbedder;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Research aid for offline fusion experiments: embeds one text per line of a file and writes the vectors
 * as little-endian float32 rows. Args: {@code MODEL query|passage IN OUT}, MODEL an
 * {@link EmbeddingModelChoice#id()} such as {@code all-minilm-l6-v2-q} or {@code bge-small-en-v1.5-q}.
 */
public final class EmbeddingDump {

    public static void main(String[] args) throws IOException {
        EmbeddingModelChoice choice = EmbeddingModelChoice.byId(args[0]);
        boolean query = args[1].equals("query");
        List<String> lines = Files.readAllLines(Path.of(args[2]), StandardCharsets.UTF_8);
        try (OnnxTextEmbedder embedder = OnnxTextEmbedder.create(choice);
                OutputStream out = new DataOutputStream(Files.newOutputStream(Path.of(args[3])))) {
            long t0 = System.nanoTime();
            List<float[]> vectors = query ? embedder.embedQueries(lines) : embedder.embedPassages(lines);
            ByteBuffer buf = ByteBuffer.allocate(embedder.dimension() * 4).order(ByteOrder.LITTLE_ENDIAN);
            for (float[] v : vectors) {
                buf.clear();
                buf.asFloatBuffer().put(v);
                out.write(buf.array());
            }
            System.err.printf("%d texts in %d ms%n", lines.size(), (System.nanoTime() - t0) / 1_000_000);
        }
    }
}
