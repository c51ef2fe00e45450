package dev.toolsmith.search;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.SingleInstanceLockFactory;

/**
 * BM25 over a tool's whole text in an in-memory Lucene index: the name, verb, description, tags, domain,
 * parameters and path words are values of one field (plus a lightly weighted {@link #IDENTITY} field), so a tool is scored as one document (one length, one term
 * frequency per word, one document frequency), the way the dense matcher reads it. Identifiers are split
 * into words before analysis (Lucene's tokenizer keeps {@code CONVERT_CURRENCY} whole), then English stop
 * words and Porter stemming apply. Each Lucene document carries the tool's slot so filtering happens
 * during collection, before the top-n cut. Not thread-safe for writes: {@link ToolIndex} serialises them.
 */
final class LexicalIndex implements Closeable {

    static final String ID = "id";
    static final String SLOT = "slot";
    /**
     * The one searched field. Summing BM25 over separate fields (as until 2026-11) counted a word once per
     * field it appears in, so a tool that repeats its task in name, domain, tags and description won on
     * that word alone; one field saturates each word once (docs/decisions/2026-11-24-one-field-bm25.md).
     */
    static final String TEXT = "text";
    /**
     * What the tool is called and where it belongs: name, verb, API/group (namespace and domain), tags and
     * the words of its HTTP path, searched as a second field whose BM25 is added with
     * {@link #IDENTITY_WEIGHT}. Short and identifier-made, it rewards a query that names the tool.
     */
    static final String IDENTITY = "identity";
    /** Weight of the identity field's BM25 next to the whole text's (docs/search.md, ablation). */
    static final float IDENTITY_WEIGHT = Float.parseFloat(
            System.getProperty("toolsmith.search.identityWeight", "0.3")); // the property is for experiments only
    /** Whether whole identifiers are indexed next to their words (docs/search.md, ablation). */
    static final boolean RAW_IDENTIFIERS = Boolean.parseBoolean(
            System.getProperty("toolsmith.search.rawIdentifiers", "true")); // the property is for experiments only
    /** Bounds the query size (and the cost of a 4 KB paragraph). */
    static final int MAX_QUERY_TERMS = 48;

    private final Analyzer analyzer = new EnglishAnalyzer();
    /**
     * Each file kept as one buffer: a query opens an input per term, and an input over a file kept as many blocks
     * duplicates every block's buffer when it is opened (a twelfth of a search at 100,000 tools; JFR, 2026-11-28).
     */
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory(new SingleInstanceLockFactory(),
            ByteBuffersDataOutput::new, ByteBuffersDirectory.OUTPUT_AS_ONE_BUFFER);
    private final IndexWriter writer;
    private final SearcherManager searchers;

    LexicalIndex() {
        try {
            IndexWriterConfig config = new IndexWriterConfig(analyzer);
            config.setRAMBufferSizeMB(64);
            writer = new IndexWriter(directory, config);
            searchers = new SearcherManager(writer, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Indexes a tool. Every identifier is split into words (case humps, underscores, hyphens, dots,
     * letter/digit edges) and also kept whole ({@link IdentifierWords}), so {@code convertAmount} matches
     * "convert", "amount" and "convertamount".
     */
    void upsert(String id, int slot, ToolText text, String pathWords) {
        Document doc = new Document();
        doc.add(new StringField(ID, id, Field.Store.NO));
        doc.add(new NumericDocValuesField(SLOT, slot));
        String[] values = {text.name(), text.verb(), text.description(), text.tags(), text.domain(),
                text.parameters(), pathWords};
        for (String value : values) {
            if (value != null && !value.isEmpty()) {
                doc.add(new TextField(TEXT, IdentifierWords.split(value, RAW_IDENTIFIERS), Field.Store.NO));
            }
        }
        String[] identity = {text.name(), text.verb(), text.tags(), text.domain(), pathWords};
        for (String value : identity) {
            if (value != null && !value.isEmpty()) {
                doc.add(new TextField(IDENTITY, IdentifierWords.split(value, RAW_IDENTIFIERS), Field.Store.NO));
            }
        }
        try {
            writer.updateDocument(new Term(ID, id), doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void delete(String id) {
        try {
            writer.deleteDocuments(new Term(ID, id));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Makes every write so far visible to searches. */
    void refresh() {
        try {
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The analysed, de-duplicated terms of a query, at most {@link #MAX_QUERY_TERMS}. */
    Set<String> terms(String text) {
        Set<String> terms = new LinkedHashSet<>();
        if (text == null || text.isBlank()) {
            return terms;
        }
        try (TokenStream ts = analyzer.tokenStream(TEXT, IdentifierWords.split(text, RAW_IDENTIFIERS))) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && terms.size() < MAX_QUERY_TERMS) {
                terms.add(term.toString());
            }
            ts.end();
        } catch (IOException | RuntimeException e) {
            // An analyser failure on odd input must not fail the search: use what was read.
        }
        return terms;
    }

    /** The best {@code n} tools by BM25 among the slots {@code accept} lets through. */
    TopSlots search(Set<String> terms, IntPredicate accept, int n) {
        TopSlots top = new TopSlots(n);
        if (terms.isEmpty() || n <= 0) {
            return top;
        }
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        for (String t : terms) {
            query.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD);
            if (IDENTITY_WEIGHT > 0) {
                query.add(new BoostQuery(new TermQuery(new Term(IDENTITY, t)), IDENTITY_WEIGHT),
                        BooleanClause.Occur.SHOULD);
            }
        }
        IndexSearcher searcher;
        try {
            searcher = searchers.acquire();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            searcher.search(query.build(), new SimpleCollector() {
                private NumericDocValues slots;
                private Scorable scorer;

                @Override
                protected void doSetNextReader(LeafReaderContext context) throws IOException {
                    slots = context.reader().getNumericDocValues(SLOT);
                }

                @Override
                public void setScorer(Scorable scorer) {
                    this.scorer = scorer;
                }

                @Override
                public void collect(int doc) throws IOException {
                    if (slots == null || !slots.advanceExact(doc)) {
                        return;
                    }
                    float score = scorer.score();
                    top.observe(score);
                    if (!top.wouldAccept(score)) {
                        return;
                    }
                    int slot = (int) slots.longValue();
                    if (accept.test(slot)) {
                        top.offer(slot, score);
                    }
                }

                @Override
                public ScoreMode scoreMode() {
                    return ScoreMode.COMPLETE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                searchers.release(searcher);
            } catch (IOException ignored) {
                // releasing an in-memory reader cannot meaningfully fail
            }
        }
        return top;
    }

    @Override
    public void close() throws IOException {
        searchers.close();
        writer.close();
        directory.close();
    }
}
