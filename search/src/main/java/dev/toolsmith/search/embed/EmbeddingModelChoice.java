package dev.toolsmith.search.embed;

import dev.langchain4j.model.embedding.onnx.PoolingMode;

/** The in-process models this module can run; each ships its ONNX file inside a Maven artifact. */
public enum EmbeddingModelChoice {

    /** BAAI bge-small-en-v1.5, int8-quantised (34 MB), CLS pooling; queries get bge's retrieval instruction. */
    BGE_SMALL_EN_V15_Q("bge-small-en-v1.5-q", "bge-small-en-v1.5-q.onnx", "bge-small-en-v1.5-q-tokenizer.json",
            PoolingMode.CLS, "Represent this sentence for searching relevant passages: ", ""),

    /**
     * sentence-transformers all-MiniLM-L6-v2, fp32 (90 MB), mean pooling, symmetric (no query prefix). For
     * benchmark comparisons only: its artifact is an optional dependency of this module, not in the services.
     */
    ALL_MINILM_L6_V2("all-minilm-l6-v2", "all-minilm-l6-v2.onnx", "all-minilm-l6-v2-tokenizer.json",
            PoolingMode.MEAN, "", ""),

    /** all-MiniLM-L6-v2, int8-quantised (23 MB): about a third of the fp32 model's time per query. */
    ALL_MINILM_L6_V2_Q("all-minilm-l6-v2-q", "all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json",
            PoolingMode.MEAN, "", ""),

    /**
     * intfloat e5-small-v2, int8-quantised (34 MB), mean pooling; trained for retrieval with "query: " and
     * "passage: " in front of the two sides. For benchmark comparisons only: its artifact is a dependency of
     * the benchmarks module, not of the services.
     */
    E5_SMALL_V2_Q("e5-small-v2-q", "e5-small-v2-q.onnx", "e5-small-v2-q-tokenizer.json", PoolingMode.MEAN, "query: ",
            "passage: ");

    final String id;
    final String modelResource;
    final String tokenizerResource;
    final PoolingMode pooling;
    final String queryPrefix;
    final String passagePrefix;

    EmbeddingModelChoice(String id, String modelResource, String tokenizerResource, PoolingMode pooling,
            String queryPrefix, String passagePrefix) {
        this.id = id;
        this.modelResource = modelResource;
        this.tokenizerResource = tokenizerResource;
        this.pooling = pooling;
        this.queryPrefix = queryPrefix;
        this.passagePrefix = passagePrefix;
    }

    public String id() {
        return id;
    }

    /** The choice with this {@link #id()}, e.g. {@code all-minilm-l6-v2-q}. */
    public static EmbeddingModelChoice byId(String id) {
        for (EmbeddingModelChoice choice : values()) {
            if (choice.id.equals(id)) {
                return choice;
            }
        }
        throw new IllegalArgumentException("unknown embedding model '" + id + "'; known: "
                + java.util.Arrays.stream(values()).map(EmbeddingModelChoice::id).toList());
    }

    public String queryPrefix() {
        return queryPrefix;
    }
}
