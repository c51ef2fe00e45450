package dev.toolsmith.search.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process ONNX sentence encoder tuned for a small shared machine: one intra-op thread per call and
 * no spin-waiting, so concurrent callers use the cores instead of two ONNX thread pools fighting over
 * them (the stock LangChain4j models run two spinning threads per call; see RUNTIME-NOTES). Bulk
 * embedding spreads texts over one worker per core. Thread-safe: an ORT session may be run concurrently.
 */
public final class OnnxTextEmbedder implements TextEmbedder, AutoCloseable {

    /** Longer texts are cut: the encoder reads at most 510 word pieces anyway, and this bounds the cost. */
    static final int MAX_CHARS = 4096;

    private final EmbeddingModelChoice choice;
    private final Model model;
    private final ExecutorService bulk;
    private final int dimension;

    private OnnxTextEmbedder(EmbeddingModelChoice choice) {
        this.choice = choice;
        this.model = new Model(choice);
        int workers = Math.max(1, Runtime.getRuntime().availableProcessors());
        AtomicInteger n = new AtomicInteger();
        this.bulk = Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(r, "embedder-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.dimension = embedRaw("dimension probe").length;
    }

    /** The production model (see docs/search.md for the comparison). Loading takes about a second. */
    public static OnnxTextEmbedder defaultModel() {
        return create(EmbeddingModelChoice.BGE_SMALL_EN_V15_Q);
    }

    public static OnnxTextEmbedder create(EmbeddingModelChoice choice) {
        return new OnnxTextEmbedder(choice);
    }

    public EmbeddingModelChoice choice() {
        return choice;
    }

    @Override
    public String modelId() {
        return choice.id;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public float[] embedQuery(String text) {
        if (text == null || text.isBlank()) {
            return new float[dimension];
        }
        return embedRaw(choice.queryPrefix + clip(text));
    }

    @Override
    public float[] embedPassage(String text) {
        if (text == null || text.isBlank()) {
            return new float[dimension];
        }
        return embedRaw(clip(text));
    }

    /** Embeds many passages using every core; order is kept. */
    @Override
    public List<float[]> embedPassages(List<String> texts) {
        List<Future<float[]>> futures = new ArrayList<>(texts.size());
        for (String text : texts) {
            futures.add(bulk.submit(() -> text == null || text.isBlank() ? new float[dimension] : embedRaw(clip(text))));
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (Future<float[]> f : futures) {
            try {
                out.add(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while embedding", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("embedding failed", e.getCause());
            }
        }
        return out;
    }

    /** Embeds many queries using every core; order is kept. */
    public List<float[]> embedQueries(List<String> texts) {
        List<String> prefixed = new ArrayList<>(texts.size());
        for (String t : texts) {
            prefixed.add(t == null || t.isBlank() ? "" : choice.queryPrefix + clip(t));
        }
        return embedPassages(prefixed);
    }

    private float[] embedRaw(String text) {
        Embedding e = model.embed(TextSegment.from(text)).content();
        return e.vector();
    }

    private static String clip(String text) {
        return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS);
    }

    @Override
    public void close() {
        bulk.shutdownNow();
    }

    /** The LangChain4j model with our session options; the stock subclasses accept none. */
    private static final class Model extends AbstractInProcessEmbeddingModel {
        private final OnnxBertBiEncoder encoder;

        Model(EmbeddingModelChoice choice) {
            super(Runnable::run);
            ClassLoader cl = OnnxTextEmbedder.class.getClassLoader();
            try (InputStream modelIn = open(cl, choice.modelResource);
                    InputStream tokenizerIn = open(cl, choice.tokenizerResource)) {
                OrtEnvironment env = OrtEnvironment.getEnvironment();
                OrtSession.SessionOptions options = new OrtSession.SessionOptions();
                options.setIntraOpNumThreads(1);
                options.setInterOpNumThreads(1);
                options.addConfigEntry("session.intra_op.allow_spinning", "0");
                options.addConfigEntry("session.inter_op.allow_spinning", "0");
                options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
                OrtSession session = env.createSession(modelIn.readAllBytes(), options);
                this.encoder = new OnnxBertBiEncoder(env, session, tokenizerIn, choice.pooling);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read embedding model " + choice.id, e);
            } catch (OrtException e) {
                throw new IllegalStateException("cannot load embedding model " + choice.id, e);
            }
        }

        private static InputStream open(ClassLoader cl, String resource) {
            InputStream in = cl.getResourceAsStream(resource);
            if (in == null) {
                throw new IllegalStateException("embedding model resource " + resource
                        + " is not on the classpath: add its langchain4j-embeddings-* artifact");
            }
            return in;
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }
    }
}
