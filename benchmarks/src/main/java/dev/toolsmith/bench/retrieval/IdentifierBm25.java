package dev.toolsmith.bench.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.search.IdentifierWords;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The honest peer row: a plain Lucene BM25 (k1 1.2, b 0.75, English analyser) over every string of a
 * tool's JSON line (name, description, API/group name, domain, tags, parameter names and descriptions,
 * any other field) as one field, with every identifier split into words (snake_case, camelCase,
 * kebab-case, letter/digit boundaries) before analysis. It shares nothing with {@code ToolIndex}'s
 * ranking; it is what a careful engineer would build in an afternoon, so the hybrid must beat it.
 */
final class IdentifierBm25 implements Closeable {

    private static final String TEXT = "text";
    private static final String ID = "id";
    private static final int MAX_CLAUSES = 64;

    private final Analyzer analyzer = new EnglishAnalyzer();
    private final ByteBuffersDirectory directory = new ByteBuffersDirectory();
    private final IndexSearcher searcher;
    private final DirectoryReader reader;

    IdentifierBm25(List<JsonNode> tools) throws IOException {
        try (IndexWriter writer = new IndexWriter(directory, new IndexWriterConfig(analyzer))) {
            for (JsonNode tool : tools) {
                Document doc = new Document();
                doc.add(new StoredField(ID, tool.path("id").asText()));
                List<String> values = new ArrayList<>();
                strings(tool, values, 0);
                doc.add(new TextField(TEXT, IdentifierWords.split(String.join(" ", values), false), Field.Store.NO));
                writer.addDocument(doc);
            }
        }
        reader = DirectoryReader.open(directory);
        searcher = new IndexSearcher(reader);
    }

    /** Every string value and object key (parameter names are keys) of the tool, the id excepted. */
    private static void strings(JsonNode node, List<String> out, int depth) {
        if (depth > 8) {
            return;
        }
        if (node.isTextual()) {
            out.add(node.asText());
        } else if (node.isArray()) {
            node.forEach(n -> strings(n, out, depth + 1));
        } else if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                if (depth == 0 && e.getKey().equals("id")) {
                    continue; // the id is usually the name again (indexed there); never the label itself
                }
                if (depth > 0 && !isSchemaKeyword(e.getKey())) {
                    out.add(e.getKey());
                }
                strings(e.getValue(), out, depth + 1);
            }
        }
    }

    private static boolean isSchemaKeyword(String key) {
        return switch (key) {
            case "type", "properties", "required", "description", "items", "enum", "default", "format",
                    "title", "example", "examples" -> true;
            default -> false;
        };
    }

    /** Tool ids, best first. */
    List<String> search(String text, int n) throws IOException {
        BooleanQuery.Builder query = new BooleanQuery.Builder();
        int clauses = 0;
        try (TokenStream ts = analyzer.tokenStream(TEXT, IdentifierWords.split(text, false))) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && clauses < MAX_CLAUSES) {
                query.add(new TermQuery(new Term(TEXT, term.toString())), BooleanClause.Occur.SHOULD);
                clauses++;
            }
            ts.end();
        }
        if (clauses == 0) {
            return List.of();
        }
        List<String> out = new ArrayList<>(n);
        for (ScoreDoc d : searcher.search(query.build(), n).scoreDocs) {
            out.add(searcher.storedFields().document(d.doc).get(ID));
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        reader.close();
        directory.close();
    }
}
