package dev.toolsmith.search.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.onnx.AbstractInProcessEmbeddingModel;
import dev.langchain4j.model.embedding.onnx.OnnxBertBiEncoder;
import dev.langchain4j.model.embedding.onnx.PoolingMode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * An in-process ONNX sentence encoder tuned for a small shared machine: one intra-op thread per call and
 * no spin-waiting, so concurrent callers use the cores instead of two ONNX thread pools fighting over
 * them (the stock LangChain4j models run two spinning threads per call; see RUNTIME-NOTES). Bulk
 * embedding spreads texts over one worker per core. Thread-safe: an ORT session may be run concurrently.
 *
 * <p>A text of fewer than {@value #MAX_PIECES} word pieces (every query, nearly every tool) is tokenised once
 * and run directly, asking the session for its first output only: LangChain4j's encoder tokenises such a
 * text three times, also computes the pooled output it ignores, and copies the hidden states into nested
 * Java arrays (about 1 ms of bge's 7 ms, measured). Pooling and normalisation follow LangChain4j's exactly,
 * so the vectors are the same as before, bit for bit. Longer texts go through LangChain4j, which averages
 * windows of {@value #MAX_PIECES} pieces.
 *
 * <p>{@link #close()} waits for the embeddings under way, then frees the native session and tokenizer; a call
 * after it fails with a message rather than reaching freed native memory.
 */
public final class OnnxTextEmbedder implements TextEmbedder, AutoCloseable {

    /** Longer texts are cut: the encoder reads at most 510 word pieces anyway, and this bounds the cost. */
    static final int MAX_CHARS = 4096;
    /** Word pieces a text may have (besides [CLS] and [SEP]) to fit one window of the encoder. */
    static final int MAX_PIECES = 510;

    private final EmbeddingModelChoice choice;
    private final Model model;
    private final ExecutorService bulk;
    private final int dimension;
    /** Embeddings share the read side; {@link #close()} takes the write side, so it never frees a running session. */
    private final ReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private boolean closed; // guarded by lifecycle

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
        return embedRaw(choice.passagePrefix + clip(text));
    }

    /** Embeds many passages using every core; order is kept. */
    @Override
    public List<float[]> embedPassages(List<String> texts) {
        List<String> prefixed = new ArrayList<>(texts.size());
        for (String t : texts) {
            prefixed.add(t == null || t.isBlank() ? "" : choice.passagePrefix + clip(t));
        }
        return embedAll(prefixed);
    }

    /** Embeds many queries using every core; order is kept. */
    public List<float[]> embedQueries(List<String> texts) {
        List<String> prefixed = new ArrayList<>(texts.size());
        for (String t : texts) {
            prefixed.add(t == null || t.isBlank() ? "" : choice.queryPrefix + clip(t));
        }
        return embedAll(prefixed);
    }

    /** Embeds texts that already carry their prefix, using every core; order is kept. */
    private List<float[]> embedAll(List<String> texts) {
        List<Future<float[]>> futures = new ArrayList<>(texts.size());
        try {
            for (String text : texts) {
                futures.add(bulk.submit(() -> text == null || text.isBlank() ? new float[dimension] : embedRaw(text)));
            }
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw closedError(); // close() shut the workers down
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (Future<float[]> f : futures) {
            try {
                out.add(f.get());
            } catch (java.util.concurrent.CancellationException e) {
                throw closedError(); // close() cancelled the ones still queued
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while embedding", e);
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("embedding failed", e.getCause());
            }
        }
        return out;
    }

    private float[] embedRaw(String text) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                throw closedError();
            }
            Encoding encoding = model.tokenizer.encode(text, true, false);
            if (encoding.getIds().length >= MAX_PIECES + 2) { // with [CLS] and [SEP]; a truncating tokenizer stops here too
                Embedding e = model.embed(TextSegment.from(text)).content();
                return e.vector();
            }
            return model.embedOneWindow(encoding, choice.pooling);
        } catch (OrtException e) {
            throw new IllegalStateException("embedding failed", e);
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    private IllegalStateException closedError() {
        return new IllegalStateException("embedding model " + choice.id + " is closed");
    }

    private static String clip(String text) {
        return text.length() <= MAX_CHARS ? text : text.substring(0, MAX_CHARS);
    }

    @Override
    public void close() {
        bulk.shutdownNow();
        lifecycle.writeLock().lock();
        try {
            if (!closed) {
                closed = true;
                model.release();
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** The LangChain4j model with our session options; the stock subclasses accept none. */
    private static final class Model extends AbstractInProcessEmbeddingModel {
        private final OnnxBertBiEncoder encoder;
        private final OrtEnvironment env;
        private final OrtSession session;
        private final HuggingFaceTokenizer tokenizer;
        private final boolean wantsTokenTypes;
        private final Set<String> firstOutput;

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
                byte[] tokenizerJson = tokenizerIn.readAllBytes();
                this.env = env;
                this.session = env.createSession(modelIn.readAllBytes(), options);
                this.encoder = new OnnxBertBiEncoder(env, session, new ByteArrayInputStream(tokenizerJson), choice.pooling);
                // the same options as LangChain4j's tokenizer, so both see the same word pieces
                this.tokenizer = HuggingFaceTokenizer.newInstance(new ByteArrayInputStream(tokenizerJson),
                        Map.of("padding", "false"));
                this.wantsTokenTypes = session.getInputNames().contains("token_type_ids");
                this.firstOutput = Set.of(session.getOutputInfo().keySet().iterator().next());
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

        /**
         * One window (no padding, so every attention-mask entry is 1): the last hidden state pooled as
         * LangChain4j pools it ([CLS] row, or the mean of all rows with [CLS] and [SEP]), then unit length.
         */
        float[] embedOneWindow(Encoding encoding, PoolingMode pooling) throws OrtException {
            long[] ids = encoding.getIds();
            long[] shape = {1, ids.length};
            Map<String, OnnxTensor> inputs = new HashMap<>(4);
            try {
                inputs.put("input_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape));
                inputs.put("attention_mask", OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getAttentionMask()), shape));
                if (wantsTokenTypes) {
                    inputs.put("token_type_ids", OnnxTensor.createTensor(env, LongBuffer.wrap(encoding.getTypeIds()), shape));
                }
                try (OrtSession.Result result = session.run(inputs, firstOutput)) {
                    OnnxTensor hidden = (OnnxTensor) result.get(0);
                    long[] dims = hidden.getInfo().getShape(); // [1, tokens, dimension]
                    return normalize(pool(hidden.getFloatBuffer(), (int) dims[1], (int) dims[2], pooling));
                }
            } finally {
                for (OnnxTensor t : inputs.values()) {
                    t.close();
                }
            }
        }

        /** In LangChain4j's order of float operations, so the result is identical to its vectors. */
        private static float[] pool(FloatBuffer rows, int tokens, int dim, PoolingMode pooling) {
            float[] out = new float[dim];
            if (pooling == PoolingMode.CLS) {
                rows.get(0, out);
                return out;
            }
            for (int t = 0; t < tokens; t++) {
                int base = t * dim;
                for (int i = 0; i < dim; i++) {
                    out[i] += rows.get(base + i);
                }
            }
            for (int i = 0; i < dim; i++) {
                out[i] /= tokens;
            }
            return out;
        }

        private static float[] normalize(float[] v) {
            float sumSq = 0;
            for (float x : v) {
                sumSq += x * x;
            }
            float norm = (float) Math.sqrt(sumSq);
            for (int i = 0; i < v.length; i++) {
                v[i] /= norm;
            }
            return v;
        }

        /** Frees the native session and our tokenizer (LangChain4j's encoder keeps its own until collected). */
        void release() {
            tokenizer.close();
            try {
                session.close();
            } catch (OrtException e) {
                throw new IllegalStateException("cannot close embedding model session", e);
            }
        }

        @Override
        protected OnnxBertBiEncoder model() {
            return encoder;
        }
    }
}
