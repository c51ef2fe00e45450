package dev.toolsmith.bench.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.search.ToolIndex;
import dev.toolsmith.search.ToolVectors;
import dev.toolsmith.search.sets.RetrievalSets;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import picocli.CommandLine.Option;

/**
 * {@code --tools FILE --queries FILE [--more-tools FILE,..] [--sample N] [--scale N] [--seed S] [--vectors FILE]}: the
 * options of the drivers that search a labelled tool set ({@link RetrievalBenchmark}, {@link LatencyProfile}).
 */
final class CatalogOptions {

    @Option(names = "--tools", required = true, paramLabel = "FILE", description = "tools.jsonl")
    Path tools;
    @Option(names = "--queries", required = true, paramLabel = "FILE", description = "queries.jsonl")
    Path queries;
    @Option(names = "--more-tools", split = ",", paramLabel = "FILE",
            description = "other sets' tools.jsonl joining the catalog as real distractors (their queries are not run)")
    List<Path> moreTools = List.of();
    @Option(names = "--sample", defaultValue = "0", description = "run a seeded sample of N queries (0: all)")
    int sample;
    @Option(names = "--scale", defaultValue = "0", description = "pad the catalog with synthetic tools up to N")
    int scale;
    @Option(names = "--seed", defaultValue = "42", description = "seed of the sample and of the synthetic tools")
    long seed;
    @Option(names = "--vectors", paramLabel = "FILE", description = "cache of the real tools' vectors between runs")
    Path vectors;

    /**
     * The catalog's tools as read: {@code --tools}, then every {@code --more-tools} file. A catalog grown with other
     * sets' real tools shows how the search and its confidence hold as a catalog grows, without the synthetic
     * padding's artefacts ({@code --scale}); a tool id in two files is refused, since one would hide the other.
     */
    List<JsonNode> rawTools() throws IOException {
        List<JsonNode> all = new ArrayList<>(RetrievalSets.rawTools(tools));
        Map<String, Path> seen = new HashMap<>();
        all.forEach(t -> seen.put(t.path("id").asText(), tools));
        for (Path more : moreTools) {
            for (JsonNode t : RetrievalSets.rawTools(more)) {
                Path earlier = seen.putIfAbsent(t.path("id").asText(), more);
                if (earlier != null) {
                    throw new IllegalArgumentException("--more-tools " + more + ": tool id '" + t.path("id").asText()
                            + "' is already in " + earlier);
                }
                all.add(t);
            }
        }
        return all;
    }

    /** The queries, or the seeded sample of them. */
    List<RetrievalSets.LabelledQuery> queries() throws IOException {
        List<RetrievalSets.LabelledQuery> all = new ArrayList<>(RetrievalSets.queries(queries));
        if (sample > 0 && sample < all.size()) {
            Collections.shuffle(all, new Random(seed));
            return new ArrayList<>(all.subList(0, sample));
        }
        return all;
    }

    /** Loads the real tools into the index and pads it up to {@code --scale}. */
    void fill(ToolIndex index, List<ToolManifest> realTools) throws IOException {
        List<ToolVectors> realVectors = vectors != null
                ? VectorCache.load(vectors, index, realTools)
                : index.vectorizeAll(realTools);
        List<ToolIndex.IndexedTool> batch = new ArrayList<>();
        for (int i = 0; i < realTools.size(); i++) {
            batch.add(new ToolIndex.IndexedTool(realTools.get(i), realVectors.get(i), null));
        }
        index.upsertAll(batch);
        if (scale > realTools.size()) {
            SyntheticTools.pad(index, realTools, realVectors, scale, seed);
        }
    }
}
