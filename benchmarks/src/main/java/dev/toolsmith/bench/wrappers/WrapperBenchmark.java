package dev.toolsmith.bench.wrappers;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.bench.SpecsOptions;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.engineer.verify.PluginVerifier;
import dev.toolsmith.engineer.verify.SuiteGenerator;
import dev.toolsmith.engineer.wrapper.BuildResult;
import dev.toolsmith.engineer.wrapper.WrapperBuilder;
import dev.toolsmith.engineer.wrapper.WrapperManifestCompleter;
import dev.toolsmith.engineer.wrapper.WrapperSettings;
import dev.toolsmith.openapi.CandidateTool;
import dev.toolsmith.openapi.IngestedDocument;
import dev.toolsmith.openapi.IngestionException;
import dev.toolsmith.openapi.IngestionLimits;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.SkippedOperation;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Ingests every OpenAPI document of a directory (openapi-import), approves every operation (with a
 * policy that provides the secret its auth needs), generates the wrapper plugin and its suite and verifies
 * it against the in-process stub — the same classes the engineer service uses, without Kafka or a
 * database. Prints as its last line
 * {@code {"documents":d,"documents_failed":f,"operations":k,"generated":g,"verified":v,
 * "failed":[{"tool":..,"reason":..}],"ms_per_tool_p50":..}}. {@code operations} counts every operation of
 * every readable document; an operation openapi-import could not turn into a tool, a document it rejected
 * (or could not read) and a tool whose build threw are each listed in {@code failed} with the reason, and
 * the run goes on.
 *
 * <p>Usage: {@code WrapperBenchmark --specs DIR [--out FILE]} ({@code --out} writes one JSON line per tool).
 */
@Command(name = "WrapperBenchmark", mixinStandardHelpOptions = true,
        description = "Ingests, approves, generates and verifies a wrapper for every operation of DIR's documents;"
                + " the last line is the JSON summary.")
public final class WrapperBenchmark implements Callable<Integer> {

    @Mixin
    SpecsOptions options;

    public static void main(String[] args) {
        System.exit(new CommandLine(new WrapperBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        ObjectMapper mapper = ContractCodec.defaultMapper();
        ObjectNode summary = run(options.specs(), options.out(), mapper, System.out);
        System.out.println(mapper.writeValueAsString(summary));
        return 0;
    }

    /**
     * Runs the benchmark over every file of {@code specs} and returns the summary (the last line). Every
     * failure is caught where it happens, per document and per tool, and listed in {@code failed} with its
     * reason: one document or tool the code cannot handle never ends the run.
     */
    static ObjectNode run(Path specs, Path out, ObjectMapper mapper, PrintStream report) throws IOException {
        OpenApiIngestor ingestor = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());
        List<Path> files;
        try (Stream<Path> listing = Files.list(specs)) {
            files = listing.filter(Files::isRegularFile).sorted().toList();
        }
        Tally tally = new Tally(mapper);
        try (PluginVerifier verifier = new PluginVerifier(new WrappedToolExecutor(mapper), mapper);
                BufferedWriter details = out == null ? null : Files.newBufferedWriter(out)) {
            WrapperBuilder builder = new WrapperBuilder(new WrapperManifestCompleter(WrapperSettings.defaults(), mapper),
                    new SuiteGenerator(), verifier);
            for (Path file : files) {
                IngestedDocument document = ingest(ingestor, file, tally);
                if (document == null) {
                    continue;
                }
                tally.operations += document.operationCount();
                for (SkippedOperation skipped : document.skipped()) {
                    tally.fail(file.getFileName() + " " + skipped.operationKey(), "not ingested: " + skipped.reason());
                }
                for (CandidateTool candidate : document.candidates()) {
                    buildOne(builder, candidate, file, tally, details, mapper);
                }
            }
        }
        Collections.sort(tally.toolNanos);
        double p50 = tally.toolNanos.isEmpty() ? 0 : tally.toolNanos.get((tally.toolNanos.size() - 1) / 2) / 1_000_000.0;
        report.println("specs: " + files.size() + ", operations: " + tally.operations + ", generated: "
                + tally.generated + ", verified: " + tally.verified + String.format(" (%.1f%%)", tally.operations == 0
                        ? 0 : 100.0 * tally.verified / tally.operations)
                + ", documents not ingested: " + tally.documentsFailed);
        tally.reasons.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(10)
                .forEach(e -> report.println("  " + e.getValue() + " x " + e.getKey()));
        ObjectNode summary = mapper.createObjectNode().put("documents", files.size())
                .put("documents_failed", tally.documentsFailed).put("operations", tally.operations)
                .put("generated", tally.generated).put("verified", tally.verified);
        summary.set("failed", tally.failed);
        summary.put("ms_per_tool_p50", Math.round(p50 * 100.0) / 100.0);
        return summary;
    }

    /** The document's candidates, or null (and the document listed as failed) when it cannot be ingested. */
    private static IngestedDocument ingest(OpenApiIngestor ingestor, Path file, Tally tally) {
        try {
            return ingestor.ingest(Files.readAllBytes(file), file.toUri(), ToolSourceType.OPENAPI);
        } catch (IngestionException e) {
            tally.documentFailed(file, "document not ingested: " + e.getMessage());
        } catch (IOException e) {
            tally.documentFailed(file, "document not read: " + e);
        } catch (RuntimeException | StackOverflowError e) {
            tally.documentFailed(file, "document not ingested: internal error: " + e);
        }
        return null;
    }

    private static void buildOne(WrapperBuilder builder, CandidateTool candidate, Path file, Tally tally,
            BufferedWriter details, ObjectMapper mapper) throws IOException {
        String tool = candidate.manifest().id();
        long start = System.nanoTime();
        BuildResult result;
        try {
            result = builder.build(approve(candidate));
        } catch (RuntimeException | StackOverflowError e) {
            tally.fail(tool, "build failed: internal error: " + e);
            tally.reasons.merge(category("build failed: internal error: " + e.getClass().getSimpleName()), 1,
                    Integer::sum);
            return;
        } finally {
            tally.toolNanos.add(System.nanoTime() - start);
        }
        if (result.wrapper() != null) {
            tally.generated++;
        }
        if (result.succeeded()) {
            tally.verified++;
        } else {
            tally.fail(tool, result.failureReason());
            tally.reasons.merge(category(result.failureReason()), 1, Integer::sum);
        }
        if (details != null) {
            ObjectNode line = mapper.createObjectNode().put("tool", tool)
                    .put("file", file.getFileName().toString()).put("operation", candidate.operationKey())
                    .put("succeeded", result.succeeded()).put("reason", result.failureReason());
            line.set("report", mapper.valueToTree(result.report()));
            details.write(mapper.writeValueAsString(line));
            details.newLine();
        }
    }

    /** What the run counted so far. */
    private static final class Tally {
        final ArrayNode failed;
        final List<Long> toolNanos = new ArrayList<>();
        final Map<String, Integer> reasons = new HashMap<>();
        int operations;
        int generated;
        int verified;
        int documentsFailed;

        Tally(ObjectMapper mapper) {
            this.failed = mapper.createArrayNode();
        }

        void fail(String tool, String reason) {
            failed.addObject().put("tool", tool).put("reason", reason);
        }

        void documentFailed(Path file, String reason) {
            documentsFailed++;
            fail(file.getFileName().toString(), reason);
        }
    }

    /** An admin's approval: the candidate as it is, with a policy that provides the secret its auth names. */
    static ToolApproved approve(CandidateTool candidate) {
        ToolManifest manifest = candidate.manifest();
        Map<String, String> secrets = new HashMap<>();
        if (manifest.binding() != null && manifest.binding().auth().scheme() != AuthBinding.Scheme.NONE) {
            secrets.put(manifest.binding().auth().secretName(), "v1:bench-placeholder");
        }
        if (manifest.healthProbe() != null && manifest.healthProbe().available()
                && manifest.healthProbe().binding().auth().scheme() != AuthBinding.Scheme.NONE) {
            secrets.put(manifest.healthProbe().binding().auth().secretName(), "v1:bench-placeholder");
        }
        UsagePolicy policy = new UsagePolicy(null, null, null, List.of(), secrets);
        return new ToolApproved(manifest.id(), 1, manifest, policy, candidate.operation(), "bench", "bench",
                Instant.now(), null);
    }

    private static String category(String reason) {
        if (reason == null) {
            return "";
        }
        String text = reason.replaceAll("'[^']*'", "'…'").replaceAll("\\d+", "N");
        return text.length() > 140 ? text.substring(0, 140) : text;
    }
}
