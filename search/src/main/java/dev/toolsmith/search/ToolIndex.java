package dev.toolsmith.search;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.embed.EnsembleTextEmbedder;
import dev.toolsmith.search.embed.QueryEmbedding;
import dev.toolsmith.search.embed.TextEmbedder;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The searchable tool catalog: hybrid retrieval (BM25 + dense vectors, fused and re-ranked), filters,
 * status, calibrated confidence and token-budgeted selection.
 *
 * <p>Thread-safe. Any number of searches run in parallel; writes ({@code upsert}, {@code remove},
 * {@code setStatus}) are serialised and become visible atomically to searches that start after they
 * return. Query embedding happens outside the lock. Searches never throw on query content: any text
 * (any language, control characters, emoji, 4 KB paragraphs) yields hits or an empty result.
 *
 * <p>Vectors: {@link #vectorize(ToolManifest)} computes a tool's {@link ToolVectors} once; store them
 * ({@link ToolVectors#toBytes()}) and give them back to {@link #upsert(ToolManifest, ToolVectors)} on
 * reload, so start-up does not re-embed the catalog. Vectors must come from the same model
 * ({@link #modelId()}); a mismatch is rejected.
 */
public final class ToolIndex implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ToolIndex.class.getName());
    private static final int INITIAL_CAPACITY = 256;
    /**
     * Tools sampled for the dense statistics. 1,024 rather than 2,048 (2026-11-27): the int8 dots of the sample
     * were the largest part of a search after the embedding. With 1,024 the held-out step precision / coverage
     * stayed exactly as with 2,048; 512 moved it by 0.2 point (docs/decisions/2026-11-27-search-latency-amd.md).
     */
    private static final int STATS_SAMPLE = 1024;
    /**
     * Catalogs of at least this many slots start the dense first pass with the sign prefilter: below it the
     * int8 scan of every tool (about 230 ns a tool) is cheap enough to hide behind the second model.
     */
    static final int PREFILTER_MIN_SLOTS = 8192;
    /**
     * The sign shortlist keeps at least this many tools, and at least 1/{@value #PREFILTER_SHARE} of the catalog
     * (1,000 since 2026-11-27, was 2,000: the same recall@5 at 10,000 tools, half the int8 reads).
     */
    private static final int PREFILTER_MIN_WIDTH = 1000;
    private static final int PREFILTER_SHARE = 10;
    /** Floors for the catalog deviations: tiny catalogs and one-hit queries must not explode z-scores. */
    private static final double MIN_DENSE_STD = 0.02;
    private static final double MIN_LEXICAL_STD = 0.5;
    /** The cascade's default; {@code -Dtoolsmith.search.cascade=false} turns it off (ablation runs only). */
    private static final boolean CASCADE = Boolean.parseBoolean(System.getProperty("toolsmith.search.cascade", "true"));

    private final TextEmbedder embedder;
    private final ToolVectorizer vectorizer;
    private final int dim;
    private final int primaryDim;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<String, Integer> slotById = new HashMap<>();
    private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
    private final LexicalIndex lexical = new LexicalIndex();
    private final HybridRanker ranker = new HybridRanker();
    private final CandidateReranker reranker = new CandidateReranker();
    private Entry[] entries = new Entry[INITIAL_CAPACITY];
    /** Every whole-tool vector in int8, slot-major, for the passes over the whole catalog. */
    private final QuantizedVectors quantized;
    private final int prefilterMinSlots;
    private final int prefilterMinWidth;
    /** Whether a query whose BM25 answer alone clears the substitution threshold skips its embedding. */
    private final boolean cascade;
    /** Which step models score plan steps' confidence (docs/search-measurements.md, "When the right tool is not in the catalog"). */
    private final StepConfidence stepConfidence;
    private int highWater;
    /** Bumped by every write, so a search that let go of the lock knows whether its first pass still holds. */
    private long generation;

    public ToolIndex(TextEmbedder embedder) {
        this(embedder, PREFILTER_MIN_SLOTS, PREFILTER_MIN_WIDTH, CASCADE, StepConfidence.STANDARD);
    }

    /**
     * An index that answers a plan step (a hybrid query with a verb) from BM25 alone, without embedding it,
     * when BM25's own calibrated confidence clears the substitution threshold ({@code cascade}, the
     * default), or one that embeds every query.
     */
    public ToolIndex(TextEmbedder embedder, boolean cascade) {
        this(embedder, cascade, StepConfidence.STANDARD);
    }

    /** As {@link #ToolIndex(TextEmbedder, boolean)}, with plan steps' confidence from the given step models. */
    public ToolIndex(TextEmbedder embedder, boolean cascade, StepConfidence stepConfidence) {
        this(embedder, PREFILTER_MIN_SLOTS, PREFILTER_MIN_WIDTH, cascade, stepConfidence);
    }

    /** With another catalog size from which the sign prefilter applies and another least shortlist (tests). */
    ToolIndex(TextEmbedder embedder, int prefilterMinSlots, int prefilterMinWidth) {
        this(embedder, prefilterMinSlots, prefilterMinWidth, CASCADE, StepConfidence.STANDARD);
    }

    private ToolIndex(TextEmbedder embedder, int prefilterMinSlots, int prefilterMinWidth, boolean cascade,
            StepConfidence stepConfidence) {
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.vectorizer = new ToolVectorizer(embedder);
        this.dim = embedder.dimension();
        this.primaryDim = embedder.primaryDimension();
        int signBits = Math.min(primaryDim, QuantizedVectors.MAX_SIGN_BITS);
        this.quantized = new QuantizedVectors(dim, signBits, INITIAL_CAPACITY);
        this.prefilterMinSlots = prefilterMinSlots;
        this.prefilterMinWidth = prefilterMinWidth;
        this.cascade = cascade;
        this.stepConfidence = Objects.requireNonNull(stepConfidence, "stepConfidence");
    }

    /** An index over the default in-process models (all-MiniLM-L6-v2 + bge-small-en-v1.5-q, averaged). */
    public static ToolIndex withDefaultModel() {
        return new ToolIndex(EnsembleTextEmbedder.defaultEnsemble());
    }

    public TextEmbedder embedder() {
        return embedder;
    }

    public String modelId() {
        return embedder.modelId();
    }

    /** Whether a plan step whose BM25 answer alone clears the substitution threshold skips its embedding. */
    public boolean cascade() {
        return cascade;
    }

    /** Which step models score a plan step's confidence. */
    public StepConfidence stepConfidence() {
        return stepConfidence;
    }

    /** Computes the vectors of a tool (10–40 ms); does not touch the index. */
    public ToolVectors vectorize(ToolManifest tool) {
        return vectorizer.vectorize(tool);
    }

    /** Computes the vectors of many tools on every core; does not touch the index. */
    public List<ToolVectors> vectorizeAll(List<ToolManifest> tools) {
        return vectorizer.vectorizeAll(tools);
    }

    /** Adds or replaces a tool, embedding it now. A replaced tool keeps its status. */
    public ToolVectors upsert(ToolManifest tool) {
        ToolVectors vectors = vectorize(tool);
        upsert(tool, vectors);
        return vectors;
    }

    /** Adds or replaces a tool with vectors computed earlier. A replaced tool keeps its status. */
    public void upsert(ToolManifest tool, ToolVectors vectors) {
        upsertAll(List.of(new IndexedTool(tool, vectors, null)));
    }

    /**
     * Adds or replaces many tools at once (one index refresh: use it to load a catalog). A null status
     * keeps a replaced tool's status and enables a new one.
     */
    public void upsertAll(Collection<IndexedTool> tools) {
        List<IndexedTool> input = List.copyOf(tools);
        List<Entry> prepared = new ArrayList<>(input.size());
        for (IndexedTool t : input) {
            prepared.add(prepare(t));
        }
        lock.writeLock().lock();
        try {
            for (int i = 0; i < prepared.size(); i++) {
                Entry e = prepared.get(i);
                PluginStatus requested = input.get(i).status();
                Integer slot = slotById.get(e.tool.id());
                if (slot == null) {
                    slot = freeSlots.isEmpty() ? highWater++ : freeSlots.pop();
                    ensureCapacity(slot + 1);
                    slotById.put(e.tool.id(), slot);
                    e.status = requested != null ? requested : PluginStatus.ENABLED;
                } else {
                    e.status = requested != null ? requested : entries[slot].status;
                }
                entries[slot] = e;
                quantized.set(slot, e.vectors.tool());
                lexical.upsert(e.tool.id(), slot, e.text, pathWords(e.tool));
            }
            lexical.refresh();
            generation++;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Removes a tool; returns whether it was there. */
    public boolean remove(String toolId) {
        lock.writeLock().lock();
        try {
            Integer slot = slotById.remove(toolId);
            if (slot == null) {
                return false;
            }
            entries[slot] = null;
            quantized.clear(slot);
            freeSlots.push(slot);
            lexical.delete(toolId);
            lexical.refresh();
            generation++;
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Sets a tool's status; a {@link PluginStatus#DISABLED} tool is never returned. False if unknown. */
    public boolean setStatus(String toolId, PluginStatus status) {
        Objects.requireNonNull(status, "status");
        lock.writeLock().lock();
        try {
            Integer slot = slotById.get(toolId);
            if (slot == null) {
                return false;
            }
            entries[slot].status = status;
            generation++;
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    public Optional<PluginStatus> status(String toolId) {
        return read(toolId, e -> e.status);
    }

    public Optional<ToolManifest> get(String toolId) {
        return read(toolId, e -> e.tool);
    }

    /** One field of a tool's entry, read under the read lock; empty if the tool is unknown. */
    private <T> Optional<T> read(String toolId, java.util.function.Function<Entry, T> field) {
        lock.readLock().lock();
        try {
            Integer slot = slotById.get(toolId);
            return slot == null ? Optional.empty() : Optional.of(field.apply(entries[slot]));
        } finally {
            lock.readLock().unlock();
        }
    }

    public int size() {
        lock.readLock().lock();
        try {
            return slotById.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Ranks the tools for a query. Filters, status and the access rule apply before ranking, so up to
     * {@code limit} allowed tools come back whenever that many match at all. Never throws on query content.
     */
    public SearchResult search(ToolQuery query) {
        try {
            return doSearch(query);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "search failed, returning no hits", e);
            return SearchResult.empty();
        }
    }

    /**
     * The tools for a prompt within {@code tokenBudget} cl100k_base tokens: the core tools first (in the
     * order given, those that fit), then the best matches for {@code message} that fit. Disabled tools are
     * never selected. The result's {@code tokensUsed} never exceeds the budget.
     */
    public Selection select(String message, int tokenBudget, Collection<String> coreToolIds) {
        return select(message, tokenBudget, coreToolIds, ToolQuery.text(message, SearchDefaults.CANDIDATES));
    }

    /** As {@link #select(String, int, Collection)}, with the filters and access rule of {@code scope}. */
    public Selection select(String message, int tokenBudget, Collection<String> coreToolIds, ToolQuery scope) {
        int budget = Math.max(0, tokenBudget);
        List<ToolManifest> chosen = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int used = 0;
        int omitted = 0;
        Set<String> core = coreToolIds == null ? Set.of() : new LinkedHashSet<>(coreToolIds);
        lock.readLock().lock();
        try {
            for (String id : core) {
                Integer slot = id == null ? null : slotById.get(id);
                if (slot == null || entries[slot].status == PluginStatus.DISABLED || !seen.add(id)) {
                    continue;
                }
                Entry e = entries[slot];
                if (used + e.tokens <= budget) {
                    chosen.add(e.tool);
                    used += e.tokens;
                } else {
                    omitted++;
                }
            }
        } finally {
            lock.readLock().unlock();
        }
        ToolQuery q = new ToolQuery(message, scope.verb(), scope.contextEntities(), scope.filters(),
                scope.allowed(), SearchDefaults.CANDIDATES, RetrievalMode.HYBRID);
        for (SearchHit hit : search(q).hits()) {
            if (!seen.add(hit.toolId())) {
                continue;
            }
            lock.readLock().lock();
            try {
                Integer slot = slotById.get(hit.toolId());
                if (slot == null || entries[slot].status == PluginStatus.DISABLED) {
                    continue;
                }
                Entry e = entries[slot];
                if (used + e.tokens <= budget) {
                    chosen.add(e.tool);
                    used += e.tokens;
                } else {
                    omitted++;
                }
            } finally {
                lock.readLock().unlock();
            }
        }
        return new Selection(chosen, used, budget, omitted);
    }

    @Override
    public void close() {
        try {
            lexical.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "closing the lexical index", e);
        }
    }

    // ---------------------------------------------------------------------------------------------

    /**
     * The catalog-independent evidence about one query's hits (see {@link ConfidenceModel}), each tool's computed
     * once: the reranker, the cascade's decision and the confidence read the same hits. Kept per entry, not per slot,
     * so a write that moves slots between the cascade's stage and the embedded one cannot give a tool another's
     * evidence. One query, one thread; read entries only with the read lock held.
     */
    private final class QueryEvidence implements CandidateReranker.Evidence {
        private final ToolQuery query;
        private final boolean step;
        private final Set<String> queryWords;
        /** The step's input names split once, not once per tool they are compared with. */
        private final List<Set<String>> inputWords;
        private final Map<Entry, ConfidenceModel.StepEvidence> seen = new IdentityHashMap<>();

        QueryEvidence(ToolQuery query, String text) {
            this.query = query;
            this.step = query.verb() != null && !query.verb().isBlank();
            this.queryWords = InputOverlap.textWords(text);
            this.inputWords = InputOverlap.wordsOf(query.contextEntities());
        }

        @Override
        public ConfidenceModel.StepEvidence of(int slot) {
            return seen.computeIfAbsent(entries[slot], this::compute);
        }

        private ConfidenceModel.StepEvidence compute(Entry entry) {
            ToolWords words = entry.words; // split when the tool was indexed
            double nameCover = words.nameCover(queryWords);
            double inputFit = inputWords.isEmpty() ? 0 : InputOverlap.shareFed(inputWords, words.parameters());
            Risk risk = entry.tool.risk();
            double risky = risk == null || risk == Risk.READ_ONLY ? 0 : 1;
            // a plan step that cannot feed the tool's required parameters is rarely asking for that tool
            double requiredUnfed = step ? InputOverlap.unfedShare(inputWords, words.required()) : 0;
            return new ConfidenceModel.StepEvidence(nameCover, inputFit, risky, requiredUnfed);
        }
    }

    /** The static words of an HTTP tool's path template ({@code /pets/{petId}/photos} → "pets photos"). */
    static String pathWords(ToolManifest tool) {
        if (tool.binding() == null || tool.binding().pathTemplate() == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String segment : tool.binding().pathTemplate().split("/")) {
            if (!segment.isBlank() && !segment.contains("{")) {
                sb.append(sb.length() > 0 ? " " : "").append(segment);
            }
        }
        return sb.toString();
    }

    private SearchResult doSearch(ToolQuery query) {
        if (query.limit() == 0) {
            return SearchResult.empty();
        }
        String text = sanitize(query.matchText());
        if (text.isBlank()) {
            return SearchResult.empty();
        }
        RetrievalMode mode = query.mode();
        Set<String> terms = lexical.terms(text);
        int k = Math.max(SearchDefaults.CANDIDATES, query.limit());
        LexicalPass decidedLexically = null;
        // only plan steps: on free text, BM25's confidence fitted on one shared set was 79 % precise at the
        // threshold on the other (docs/search.md, "How a query is ranked"), so free text is always embedded
        boolean step = query.verb() != null && !query.verb().isBlank();
        QueryEvidence evidence = new QueryEvidence(query, text);
        if (mode == RetrievalMode.HYBRID && cascade && step) {
            lock.readLock().lock();
            try {
                LexicalPass lex = lexicalPass(query, terms, k);
                SearchResult decided = lexicalDecision(query, terms, lex, evidence);
                if (decided != null) {
                    return decided;
                }
                decidedLexically = lex;
            } finally {
                lock.readLock().unlock();
            }
        }
        return ranking(query, text, terms, k, decidedLexically, r -> {
            if (r == null) {
                return SearchResult.empty();
            }
            List<HybridRanker.Candidate> ranked = mode == RetrievalMode.HYBRID && step
                    ? reranker.rerank(r.ranked(), evidence) : r.ranked();
            return respond(query, terms, mode, ranked, r.dense(), r.lexical(), r.semantic(), false, evidence);
        });
    }

    /**
     * Embeds the query, ranks the candidates (reusing the cascade's BM25 pass when it is still valid) and hands the
     * ranking, or null when the catalog is empty, to {@code whenRanked} with the read lock held.
     */
    private <T> T ranking(ToolQuery query, String text, Set<String> terms, int k, LexicalPass decidedLexically,
            java.util.function.Function<Ranking, T> whenRanked) {
        RetrievalMode mode = query.mode();
        // an ensemble returns here with its first model's half while its second model is still running
        QueryEmbedding embedding = mode == RetrievalMode.BM25 ? null : embedder.startQuery(text);
        float[] primary = embedding == null ? null : embedding.primary();
        FirstPass first;
        lock.readLock().lock();
        try {
            first = firstPass(query, primary, terms, k, decidedLexically);
        } finally {
            lock.readLock().unlock();
        }
        float[] qv = embedding == null ? null : embedding.full(); // waited for without the lock
        lock.readLock().lock();
        try {
            if (first.generation != generation) { // a write landed meanwhile: slots may have moved
                first = firstPass(query, primary, terms, k, null);
            }
            if (first.live == 0) {
                return whenRanked.apply(null);
            }
            TopSlots dense = first.dense;
            TopSlots lexicalTop = first.lexical;
            HybridRanker.Stats denseStats = qv == null ? HybridRanker.Stats.NONE : denseStats(first, qv);
            HybridRanker.Stats lexicalStats = lexicalTop.stats(first.live, MIN_LEXICAL_STD);
            List<HybridRanker.Candidate> ranked = ranker.rank(mode, qv, dense, denseStats, lexicalTop,
                    lexicalStats, slot -> entries[slot].vectors, first.leadingSums);
            if (mode == RetrievalMode.BM25) {
                ranked.removeIf(c -> c.lexical() <= 0);
            }
            return whenRanked.apply(new Ranking(ranked, dense, lexicalTop, qv != null));
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The fused candidates of a query, best first, with the lists they came from. */
    private record Ranking(List<HybridRanker.Candidate> ranked, TopSlots dense, TopSlots lexical, boolean semantic) {
    }

    /** The reranking stage's input for one query (hybrid, never cascaded): see {@link #rerankingEvidence}. */
    public record CandidateEvidence(String toolId, double fused, double[] features) {
    }

    /**
     * The best fused candidates of a hybrid query before {@link CandidateReranker} re-orders them, each with its
     * fused score and reranking features ({@code CandidateReranker.FEATURES}): the input of the reranker's refit
     * ({@code RerankFit}). Embeds the query even when the cascade would not.
     */
    public List<CandidateEvidence> rerankingEvidence(ToolQuery query) {
        try {
            String text = sanitize(query.matchText());
            if (query.limit() == 0 || text.isBlank()) {
                return List.of();
            }
            Set<String> terms = lexical.terms(text);
            ToolQuery hybrid = query.mode() == RetrievalMode.HYBRID ? query : query.withMode(RetrievalMode.HYBRID);
            QueryEvidence evidence = new QueryEvidence(query, text);
            return ranking(hybrid, text, terms, Math.max(SearchDefaults.CANDIDATES, query.limit()), null, r -> {
                if (r == null) {
                    return List.<CandidateEvidence>of();
                }
                List<CandidateEvidence> out = new ArrayList<>();
                for (double[] row : CandidateReranker.featureRows(r.ranked(), evidence)) {
                    out.add(new CandidateEvidence(entries[r.ranked().get(out.size()).slot()].tool.id(), row[0],
                            Arrays.copyOfRange(row, 1, row.length)));
                }
                return out;
            });
        } catch (RuntimeException e) { // the same promise as search: no query text makes it throw
            LOG.log(System.Logger.Level.WARNING, "reranking evidence failed, returning none", e);
            return List.of();
        }
    }

    /**
     * The cascade's first stage, for plan steps: BM25 alone, ranked and scored exactly as
     * {@link RetrievalMode#BM25} would be. If its own calibrated confidence already clears the substitution threshold
     * ({@link SearchDefaults#SUBSTITUTION_THRESHOLD}), the lexical evidence
     * decides and the query is never embedded (a few hundred microseconds instead of the models' 5–10 ms);
     * otherwise null, and the search goes on with the embedding. Call with the read lock held.
     */
    private SearchResult lexicalDecision(ToolQuery query, Set<String> terms, LexicalPass lex, QueryEvidence evidence) {
        if (lex.live == 0 || lex.top.size() == 0) {
            return null;
        }
        List<HybridRanker.Candidate> ranked = ranker.rank(RetrievalMode.BM25, null, new TopSlots(0),
                HybridRanker.Stats.NONE, lex.top, lex.top.stats(lex.live, MIN_LEXICAL_STD), slot -> entries[slot].vectors,
                HybridRanker.LeadingSums.NONE);
        ranked.removeIf(c -> c.lexical() <= 0);
        if (ranked.isEmpty()) {
            return null;
        }
        // the top hit's confidence first: the other hits' evidence is only worth computing for an answer
        double[] f = ConfidenceModel.features(ranked, 0, -1, lex.top.slotsBestFirst()[0], terms.size(), true,
                evidence.of(ranked.get(0).slot()), ConfidenceModel.catalogScale(lex.live));
        if (ConfidenceModel.probability(RetrievalMode.BM25, true, stepConfidence, f) < SearchDefaults.SUBSTITUTION_THRESHOLD) {
            return null;
        }
        return respond(query, terms, RetrievalMode.BM25, ranked, new TopSlots(0), lex.top, false, true, evidence);
    }

    /** Hits with their confidence from a ranking. Call with the read lock held. */
    private SearchResult respond(ToolQuery query, Set<String> terms, RetrievalMode mode,
            List<HybridRanker.Candidate> ranked, TopSlots dense, TopSlots lexicalTop, boolean semantic,
            boolean lexicalOnly, QueryEvidence evidence) {
        int denseTop = dense.size() > 0 ? dense.slotsBestFirst()[0] : -1;
        int lexicalBest = lexicalTop.size() > 0 ? lexicalTop.slotsBestFirst()[0] : -1;
        int n = Math.min(query.limit(), ranked.size());
        double catalogScale = ConfidenceModel.catalogScale(slotById.size()); // the size the z-scores were taken over
        List<SearchHit> hits = new ArrayList<>(n);
        boolean step = query.verb() != null && !query.verb().isBlank();
        double[] topFeatures = null;
        double topConfidence = 0;
        for (int i = 0; i < n; i++) {
            HybridRanker.Candidate c = ranked.get(i);
            double[] f = ConfidenceModel.features(ranked, i, denseTop, lexicalBest, terms.size(), step,
                    evidence.of(c.slot()), catalogScale);
            double p = ConfidenceModel.probability(mode, step, stepConfidence, f);
            if (i == 0) {
                topFeatures = f;
                topConfidence = p;
            } else {
                p = Math.min(p, topConfidence); // nothing below the top is likelier to be right than it
            }
            Entry e = entries[c.slot()];
            List<String> matchedOn = new ArrayList<>(2);
            if (c.lexical() > 0) {
                matchedOn.add("lexical");
            }
            if (semantic) {
                matchedOn.add("semantic");
            }
            hits.add(new SearchHit(e.tool.id(), e.tool.verb(), e.tool.name(), e.tool.description(), c.score(),
                    p, matchedOn, e.tool.risk(), e.tool.version()));
        }
        return new SearchResult(hits, topConfidence, topFeatures, lexicalOnly);
    }

    /** The lexical candidates of a query and the catalog size they were found in; valid for one generation. */
    private record LexicalPass(long generation, int live, TopSlots top, SlotFilter filter) {
    }

    /**
     * BM25's candidates under the query's filters, with the filter's answers kept for the embedded pass of the same
     * generation. Call with the read lock held.
     */
    private LexicalPass lexicalPass(ToolQuery query, Set<String> terms, int k) {
        int live = slotById.size();
        SlotFilter filter = new SlotFilter(query);
        TopSlots top = live == 0 ? new TopSlots(0) : lexical.search(terms, filter, k);
        return new LexicalPass(generation, live, top, filter);
    }

    /**
     * The work that needs only the query's primary part (the first model's half), done while the rest of
     * the query is still being embedded: both candidate lists and the primary half of the dense statistics.
     * Call with the read lock held.
     */
    private FirstPass firstPass(ToolQuery query, float[] primary, Set<String> terms, int k, LexicalPass earlier) {
        int live = slotById.size();
        // the cascade's pass already asked the access rule about some tools: its answers hold while nothing was written
        SlotFilter filter = earlier != null && earlier.generation == generation ? earlier.filter : new SlotFilter(query);
        QuantizedVectors.Query q = primary == null ? null : QuantizedVectors.query(primary, 0, primaryDim);
        TopSlots dense = q == null || live == 0 ? new TopSlots(0) : denseScan(primary, q, filter, k);
        TopSlots lexicalTop;
        if (query.mode() == RetrievalMode.DENSE || live == 0) {
            lexicalTop = new TopSlots(0);
        } else if (earlier != null && earlier.generation == generation) { // the cascade's first stage found them
            lexicalTop = earlier.top;
        } else {
            lexicalTop = lexical.search(terms, filter, k);
        }
        int[] sample = q == null ? new int[0] : statsSample();
        int[] samplePrimaryDots = new int[sample.length];
        for (int i = 0; i < sample.length; i++) {
            if (i % QuantizedVectors.READ_AHEAD == 0) { // from 2,048 tools on, the sample is scattered too
                quantized.readAhead(q, sample, i + QuantizedVectors.READ_AHEAD);
            }
            samplePrimaryDots[i] = quantized.rawDot(q, sample[i]);
        }
        return new FirstPass(generation, live, dense, lexicalTop, q, sample, samplePrimaryDots,
                leadingSums(primary, dense, lexicalTop));
    }

    /** What {@link #firstPass} found; valid while {@link #generation} is unchanged. */
    private record FirstPass(long generation, int live, TopSlots dense, TopSlots lexical,
            QuantizedVectors.Query primary, int[] sample, int[] samplePrimaryDots, HybridRanker.LeadingSums leadingSums) {
    }

    /**
     * The first half of every candidate's exact cosines (tool and title vector), taken while the second model is
     * still embedding the query, so that the search does only the second half once it is done (the re-scoring after
     * the embedding took 0.25 ms instead of 0.33 at 10,000 tools, 2026-11-29).
     */
    private HybridRanker.LeadingSums leadingSums(float[] primary, TopSlots dense, TopSlots lexicalTop) {
        if (primary == null || !HybridRanker.LeadingSums.possible(primary.length, dim)) {
            return HybridRanker.LeadingSums.NONE;
        }
        HybridRanker.LeadingSums sums = new HybridRanker.LeadingSums(primary.length);
        for (int slot : dense.slotsBestFirst()) {
            sums.add(slot, primary, entries[slot].vectors);
        }
        for (int slot : lexicalTop.slotsBestFirst()) {
            sums.add(slot, primary, entries[slot].vectors);
        }
        return sums;
    }

    /**
     * First pass over every tool: the int8 query against the leading {@link TextEmbedder#primaryDimension()}
     * components only (the exact float vectors re-score the shortlist). Filters apply here, before the cut.
     * From {@link #prefilterMinSlots} slots on, only a shortlist by sign bits is read in int8 (see
     * {@link #signShortlist}); if the filters refuse much of it, every tool is read as below.
     */
    private TopSlots denseScan(float[] primary, QuantizedVectors.Query q, SlotFilter filter, int k) {
        if (highWater >= prefilterMinSlots) {
            int width = Math.max(prefilterMinWidth, highWater / PREFILTER_SHARE);
            TopSlots top = new TopSlots(k);
            int considered = 0;
            int refused = 0;
            int[] shortlist = signShortlist(quantized.signQuery(primary), width);
            for (int j = 0; j < shortlist.length; j++) {
                if (j % QuantizedVectors.READ_AHEAD == 0) {
                    quantized.readAhead(q, shortlist, j + QuantizedVectors.READ_AHEAD);
                }
                int slot = shortlist[j];
                float score = quantized.dot(q, slot);
                if (top.wouldAccept(score)) {
                    considered++;
                    if (filter.test(slot)) {
                        top.offer(slot, score);
                    } else {
                        refused++;
                    }
                }
            }
            // a filter that refuses much of the shortlist leaves too few of its tools in it: read them all
            if (top.size() == k && refused * 4 <= considered) {
                return top;
            }
        }
        TopSlots top = new TopSlots(k);
        for (int slot = 0; slot < highWater; slot++) {
            if (entries[slot] == null) {
                continue;
            }
            float score = quantized.dot(q, slot);
            if (top.wouldAccept(score) && filter.test(slot)) {
                top.offer(slot, score);
            }
        }
        return top;
    }

    /**
     * The (at least) {@code width} slots whose signs score best against the query (see
     * {@link QuantizedVectors#signScore}), ties at the cut included: one pass over the scores with a
     * histogram, no heap. On the 10,000- and 100,000-tool benchmark catalogs a shortlist of max(2,000, n/10)
     * held 99.8–99.95 of the int8 pass's own top 100 on average, and every one of its top 10 (docs/search.md);
     * max(1,000, n/10), 10 % at 10,000 tools, left recall@5 there as it was (2026-11-27).
     */
    private int[] signShortlist(QuantizedVectors.SignQuery q, int width) {
        int max = q.maxScore();
        short[] score = new short[highWater]; // a sign score fits (QuantizedVectors.MAX_SIGN_BITS)
        int[] histogram = new int[max + 1];
        for (int slot = 0; slot < highWater; slot++) {
            if (entries[slot] == null) {
                score[slot] = -1;
                continue;
            }
            int s = quantized.signScore(q, slot);
            score[slot] = (short) s;
            histogram[s]++;
        }
        int threshold = max;
        int count = histogram[threshold];
        while (count < width && threshold > 0) {
            count += histogram[--threshold];
        }
        int[] out = new int[count];
        int n = 0;
        for (int slot = 0; slot < highWater; slot++) {
            if (score[slot] >= threshold) {
                out[n++] = slot;
            }
        }
        return out;
    }

    /** Every {@code ⌊n / }{@value #STATS_SAMPLE}{@code ⌋}-th live slot: all of them up to {@value #STATS_SAMPLE} tools. */
    private int[] statsSample() {
        int stride = Math.max(1, highWater / STATS_SAMPLE);
        int[] out = new int[(highWater + stride - 1) / stride];
        int n = 0;
        for (int slot = 0; slot < highWater; slot += stride) {
            if (entries[slot] != null) {
                out[n++] = slot;
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * Mean and deviation of the full dense similarity over the catalog, from the sample of
     * {@link #statsSample()}: exact up to {@value #STATS_SAMPLE} tools, then between {@value #STATS_SAMPLE}
     * and twice that many (1,112 at 10,000 tools). The primary half of each dot product was taken in the
     * first pass; the rest of the query is added here.
     */
    private HybridRanker.Stats denseStats(FirstPass first, float[] qv) {
        int[] sample = first.sample;
        if (sample.length < 2) {
            return HybridRanker.Stats.NONE;
        }
        QuantizedVectors.Query rest = QuantizedVectors.query(qv, primaryDim, dim);
        float primaryScale = first.primary.scale();
        float restScale = rest.scale();
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < sample.length; i++) {
            if (i % QuantizedVectors.READ_AHEAD == 0) {
                quantized.readAhead(rest, sample, i + QuantizedVectors.READ_AHEAD);
            }
            int slot = sample[i];
            double d = quantized.scale(slot)
                    * ((double) primaryScale * first.samplePrimaryDots[i] + (double) restScale * quantized.rawDot(rest, slot));
            sum += d;
            sumSq += d * d;
        }
        int n = sample.length;
        double mean = sum / n;
        return new HybridRanker.Stats(mean, Math.max(MIN_DENSE_STD, Math.sqrt(Math.max(0, sumSq / n - mean * mean))));
    }

    /** Drops characters that carry no meaning and can upset tokenisers (controls, lone surrogates). */
    static String sanitize(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    sb.append(c).append(text.charAt(++i));
                } else {
                    sb.append(' ');
                }
            } else if (Character.isLowSurrogate(c) || Character.isISOControl(c) || c == '\uFFFD'
                    || Character.getType(c) == Character.FORMAT) {
                sb.append(' ');
            } else {
                sb.append(c);
            }
        }
        return sb.toString().strip();
    }

    private Entry prepare(IndexedTool t) {
        ToolManifest tool = Objects.requireNonNull(t.tool(), "tool");
        Objects.requireNonNull(tool.id(), "tool id");
        ToolVectors vectors = Objects.requireNonNull(t.vectors(), "vectors");
        if (!vectors.modelId().equals(embedder.modelId())) {
            throw new IllegalArgumentException("tool " + tool.id() + " has vectors from model " + vectors.modelId()
                    + ", this index uses " + embedder.modelId() + ": re-vectorize it");
        }
        if (vectors.dimension() != dim) {
            throw new IllegalArgumentException("tool " + tool.id() + " has " + vectors.dimension()
                    + "-d vectors, expected " + dim);
        }
        return new Entry(tool, ToolText.of(tool), ToolWords.of(tool), vectors, ToolTokens.count(tool));
    }

    private void ensureCapacity(int slots) {
        if (slots <= entries.length) {
            return;
        }
        int capacity = Math.max(slots, entries.length * 2);
        entries = Arrays.copyOf(entries, capacity);
        quantized.ensureCapacity(capacity);
    }

    /** A tool with its vectors and, optionally, its status, for {@link #upsertAll(Collection)}. */
    public record IndexedTool(ToolManifest tool, ToolVectors vectors, PluginStatus status) {
    }

    private static final class Entry {
        final ToolManifest tool;
        final ToolText text;
        final ToolWords words;
        final ToolVectors vectors;
        final int tokens;
        PluginStatus status;

        Entry(ToolManifest tool, ToolText text, ToolWords words, ToolVectors vectors, int tokens) {
            this.tool = tool;
            this.text = text;
            this.words = words;
            this.vectors = vectors;
            this.tokens = tokens;
        }
    }

    /**
     * Decides whether a slot may appear, once per slot per query: disabled never, then the filters, then the
     * caller's access rule (evaluated lazily, only for tools that would make the candidate lists).
     */
    private final class SlotFilter implements java.util.function.IntPredicate {
        private static final byte ALLOWED = 1;
        private static final byte REFUSED = 2;
        private final SearchFilters f;
        private final ToolQuery query;
        /**
         * Per slot: 0 not decided yet, else {@link #ALLOWED} or {@link #REFUSED}. An array, not a map of boxed slots:
         * at 100,000 tools the map's boxing and hashing took a sixth of a search (JFR, 2026-11-28).
         */
        private final byte[] memo;

        SlotFilter(ToolQuery query) {
            this.query = query;
            this.f = query.filters();
            this.memo = new byte[highWater]; // built under the read lock: no slot at or above it exists meanwhile
        }

        @Override
        public boolean test(int slot) {
            if (slot >= memo.length) {
                return evaluate(slot);
            }
            if (memo[slot] == 0) {
                memo[slot] = evaluate(slot) ? ALLOWED : REFUSED;
            }
            return memo[slot] == ALLOWED;
        }

        private boolean evaluate(int slot) {
            Entry e = entries[slot];
            if (e == null || e.status == PluginStatus.DISABLED) {
                return false;
            }
            if (f.status() != null && !f.status().isBlank()
                    && !e.status.name().equalsIgnoreCase(f.status().strip())) {
                return false;
            }
            if (f.namespace() != null && !f.namespace().isBlank()
                    && !f.namespace().strip().equalsIgnoreCase(Objects.toString(e.tool.namespace(), ""))) {
                return false;
            }
            if (f.domain() != null && !f.domain().isBlank()
                    && !f.domain().strip().equalsIgnoreCase(Objects.toString(e.tool.domain(), ""))) {
                return false;
            }
            if (f.risk() != null && !f.risk().isEmpty() && !f.risk().contains(e.tool.risk())) {
                return false;
            }
            try {
                return query.allowed().test(e.tool);
            } catch (RuntimeException ex) {
                return false; // an access rule that cannot decide does not grant access
            }
        }
    }
}
