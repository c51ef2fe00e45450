package dev.toolsmith.bench.ingest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.bench.SpecsOptions;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractValidator;
import dev.toolsmith.contracts.event.ContractViolation;
import dev.toolsmith.contracts.event.MessageType;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.openapi.CandidateTool;
import dev.toolsmith.openapi.IngestedDocument;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.IngestionLimits;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.SkippedOperation;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Ingests every OpenAPI/Swagger document of a directory through the same {@link OpenApiIngestor} a scan
 * uses and reports, as its last line, one JSON object:
 * {@code {"documents":N,"ingested":n,"rejected":[{"file":..,"reason":..}],"operations":k,"tools":t,
 * "skipped_operations":s,"partial":[{"file":..,"skipped":n,"first":..}],"ms_per_document_p50":..,
 * "ms_per_document_p99":..}}. {@code operations} counts the operations of ingested documents;
 * {@code tools} counts candidates whose manifest validates, again, against the contracts' tool-manifest
 * schema; {@code partial} lists the documents ingested without some of their operations (how many, and
 * the first with its reason). Every document's failure is caught and reported, whatever it is: the run
 * never stops early. {@code --out FILE} also writes per-document details (every skipped operation and
 * why).
 *
 * <p>Usage: {@code java -cp ... dev.toolsmith.bench.ingest.IngestBenchmark --specs DIR [--out FILE]}
 */
@Command(name = "IngestBenchmark", mixinStandardHelpOptions = true,
        description = "Ingests every OpenAPI/Swagger document of DIR; the last line is the JSON summary.")
public final class IngestBenchmark implements Callable<Integer> {

    @Mixin
    SpecsOptions options;

    public static void main(String[] args) {
        System.exit(new CommandLine(new IngestBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws IOException {
        ObjectMapper mapper = ContractCodec.defaultMapper();
        System.out.println(mapper.writeValueAsString(run(options.specs(), options.out(), mapper)));
        return 0;
    }

    static ObjectNode run(Path specs, Path out, ObjectMapper mapper) throws IOException {
        List<Path> files;
        try (Stream<Path> listing = Files.list(specs)) {
            files = listing.filter(Files::isRegularFile).filter(IngestBenchmark::isDocument).sorted().toList();
        }
        // Documents are local files: the address policy only matters for external $refs, kept strict.
        OpenApiIngestor ingestor = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());
        ContractValidator contracts = new ContractValidator();
        ObjectNode summary = mapper.createObjectNode();
        ArrayNode rejected = mapper.createArrayNode();
        ArrayNode details = mapper.createArrayNode();
        List<Double> millis = new ArrayList<>();
        int ingested = 0;
        long operations = 0;
        long tools = 0;
        long skippedOperations = 0;
        ArrayNode partial = mapper.createArrayNode();
        // one warm-up pass over the first document so class loading is not charged to it
        if (!files.isEmpty()) {
            try {
                ingestor.ingest(Files.readAllBytes(files.get(0)), files.get(0).toUri(), ToolSourceType.OPENAPI);
            } catch (IngestionException ignored) {
                // measured below
            }
        }
        for (Path file : files) {
            ObjectNode detail = details.addObject().put("file", file.getFileName().toString());
            long start = System.nanoTime();
            try {
                IngestedDocument document = ingestor.ingest(read(file), file.toUri(), ToolSourceType.OPENAPI);
                double ms = (System.nanoTime() - start) / 1e6;
                millis.add(ms);
                detail.put("ms", round(ms));
                ingested++;
                operations += document.operationCount();
                int valid = 0;
                for (CandidateTool candidate : document.candidates()) {
                    try {
                        contracts.validate(MessageType.TOOL_MANIFEST, mapper.valueToTree(candidate.manifest()));
                        valid++;
                    } catch (ContractViolation violation) {
                        detail.withArray("invalid").add(candidate.operationKey() + ": " + violation.getMessage());
                    }
                }
                tools += valid;
                detail.put("dialect", document.dialect()).put("operations", document.operationCount())
                        .put("tools", valid);
                ArrayNode skipped = detail.putArray("skipped");
                for (SkippedOperation s : document.skipped()) {
                    skipped.addObject().put("operation", s.operationKey()).put("reason", s.reason());
                }
                skippedOperations += document.skipped().size();
                if (!document.skipped().isEmpty()) {
                    SkippedOperation first = document.skipped().get(0);
                    partial.addObject().put("file", file.getFileName().toString())
                            .put("skipped", document.skipped().size())
                            .put("first", first.operationKey() + ": " + first.reason());
                }
            } catch (IngestionException e) {
                millis.add((System.nanoTime() - start) / 1e6);
                rejected.addObject().put("file", file.getFileName().toString()).put("reason", e.getMessage());
                detail.put("rejected", e.getMessage());
            } catch (RuntimeException | StackOverflowError e) {
                millis.add((System.nanoTime() - start) / 1e6);
                String reason = "internal error: " + e;
                rejected.addObject().put("file", file.getFileName().toString()).put("reason", reason);
                detail.put("rejected", reason);
            }
        }
        Collections.sort(millis);
        summary.put("documents", files.size());
        summary.put("ingested", ingested);
        summary.set("rejected", rejected);
        summary.put("operations", operations);
        summary.put("tools", tools);
        summary.put("skipped_operations", skippedOperations);
        summary.set("partial", partial);
        summary.put("ms_per_document_p50", round(percentile(millis, 0.50)));
        summary.put("ms_per_document_p99", round(percentile(millis, 0.99)));
        if (out != null) {
            ObjectNode full = summary.deepCopy();
            full.set("details", details);
            Files.writeString(out, mapper.writerWithDefaultPrettyPrinter().writeValueAsString(full));
        }
        return summary;
    }

    /** The file's bytes; a file that cannot be read is that document's failure, not the run's. */
    private static byte[] read(Path file) throws IngestionException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IngestionException(IngestionException.Reason.FETCH_FAILED, "cannot read " + file + ": " + e);
        }
    }

    private static boolean isDocument(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
    }

    private static double percentile(List<Double> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    private IngestBenchmark() {
    }
}
