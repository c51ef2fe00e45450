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
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * Research aid for offline fusion experiments: embeds one text per line of a file and writes the vectors
 * as little-endian float32 rows. Arguments: {@code MODEL query|passage IN OUT}, MODEL an
 * {@link EmbeddingModelChoice#id()} such as {@code all-minilm-l6-v2-q} or {@code bge-small-en-v1.5-q}.
 */
@Command(name = "EmbeddingDump", mixinStandardHelpOptions = true,
        description = "Embeds one text per line and writes the vectors as little-endian float32 rows.")
public final class EmbeddingDump implements Callable<Integer> {

    /** How the lines are embedded: as search queries (with the model's query prefix) or as tool texts. */
    enum Kind { QUERY, PASSAGE }

    @Parameters(index = "0", description = "model id, e.g. all-minilm-l6-v2-q or bge-small-en-v1.5-q")
    String model;
    @Parameters(index = "1", description = "query or passage")
    Kind kind;
    @Parameters(index = "2", description = "input: one text per line")
    Path in;
    @Parameters(index = "3", description = "output: float32 rows")
    Path outFile;

    public static void main(String[] args) {
        System.exit(new CommandLine(new EmbeddingDump()).setCaseInsensitiveEnumValuesAllowed(true).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        EmbeddingModelChoice choice = EmbeddingModelChoice.byId(model);
        boolean query = kind == Kind.QUERY;
        List<String> lines = Files.readAllLines(in, StandardCharsets.UTF_8);
        try (OnnxTextEmbedder embedder = OnnxTextEmbedder.create(choice);
                OutputStream out = new DataOutputStream(Files.newOutputStream(outFile))) {
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
        return 0;
    }
}
