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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --tools FILE --queries FILE [--more-tools FILE,..] [--sample N] [--scale N] [--seed S] [--vectors FILE]}: the
 * options of the drivers that search a labelled tool set ({@link RetrievalBenchmark}, {@link LatencyProfile}).
 */
final class CatalogOptions {

    /** The command this mixin belongs to, for usage errors. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

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
     * padding's artefacts ({@code --scale}). A file that cannot be read, a tool without an id, and an id met twice
     * (in one file or two: the index would keep one and hide the other) are usage errors naming the file.
     */
    List<JsonNode> rawTools() {
        List<JsonNode> all = new ArrayList<>();
        Map<String, Path> seen = new HashMap<>();
        List<Path> files = new ArrayList<>(List.of(tools));
        files.addAll(moreTools);
        for (int f = 0; f < files.size(); f++) {
            Path file = files.get(f);
            String option = f == 0 ? "--tools" : "--more-tools";
            List<JsonNode> read = read(option, file);
            for (int i = 0; i < read.size(); i++) {
                String id = read.get(i).path("id").asText("");
                if (id.isBlank()) {
                    throw usage(option + " " + file + ": tool " + (i + 1) + " has no id");
                }
                Path earlier = seen.putIfAbsent(id, file);
                if (earlier != null) {
                    throw usage(option + " " + file + ": tool id '" + id + "' is already in " + earlier);
                }
            }
            all.addAll(read);
        }
        return all;
    }

    private List<JsonNode> read(String option, Path file) {
        try {
            return RetrievalSets.rawTools(file);
        } catch (java.nio.file.NoSuchFileException e) {
            throw usage(option + " " + file + ": no such file");
        } catch (IOException e) { // Jackson's message names the line and column
            throw usage(option + " " + file + ": not a tools.jsonl file: " + e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(command.commandLine(), message);
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
