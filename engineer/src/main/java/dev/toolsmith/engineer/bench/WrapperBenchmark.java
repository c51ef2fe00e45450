package dev.toolsmith.engineer.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.toolsmith.engineer.wrapper.WrapperGenerator;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Ingests every OpenAPI document of a directory (openapi-import), approves every operation (with a
 * policy that provides the secret its auth needs), generates the wrapper plugin and its suite and verifies
 * it against the in-process stub — the same classes the engineer service uses, without Kafka or a
 * database. Prints as its last line
 * {@code {"operations":k,"generated":g,"verified":v,"failed":[{"tool":..,"reason":..}],"ms_per_tool_p50":..}}.
 * {@code operations} counts every operation of every readable document; an operation openapi-import could
 * not turn into a tool, or a document it rejected, is listed in {@code failed} with the import's reason.
 *
 * <p>Usage: {@code WrapperBenchmark --specs DIR [--out FILE]} ({@code --out} writes one JSON line per tool).
 */
public final class WrapperBenchmark {

    public static void main(String[] args) throws Exception {
        Path specs = null;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--specs" -> specs = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> usage();
            }
        }
        if (specs == null || !Files.isDirectory(specs)) {
            usage();
        }
        ObjectMapper mapper = ContractCodec.defaultMapper();
        OpenApiIngestor ingestor = new OpenApiIngestor(IngestionLimits.defaults(), AddressPolicy.publicOnly());
        List<Path> files;
        try (Stream<Path> listing = Files.list(specs)) {
            files = listing.filter(Files::isRegularFile).sorted().toList();
        }
        int operations = 0;
        int generated = 0;
        int verified = 0;
        ArrayNode failed = mapper.createArrayNode();
        List<Long> toolNanos = new ArrayList<>();
        Map<String, Integer> reasons = new HashMap<>();
        try (PluginVerifier verifier = new PluginVerifier(new WrappedToolExecutor(mapper), mapper);
                BufferedWriter details = out == null ? null : Files.newBufferedWriter(out)) {
            WrapperBuilder builder = new WrapperBuilder(new WrapperGenerator(WrapperSettings.defaults(), mapper),
                    new SuiteGenerator(), verifier);
            for (Path file : files) {
                IngestedDocument document;
                try {
                    document = ingestor.ingest(Files.readAllBytes(file), file.toUri(), ToolSourceType.OPENAPI);
                } catch (IngestionException e) {
                    failed.add(mapper.createObjectNode().put("tool", file.getFileName().toString())
                            .put("reason", "document not ingested: " + e.getMessage()));
                    continue;
                }
                operations += document.operationCount();
                for (SkippedOperation skipped : document.skipped()) {
                    failed.add(mapper.createObjectNode().put("tool", file.getFileName() + " " + skipped.operationKey())
                            .put("reason", "not ingested: " + skipped.reason()));
                }
                for (CandidateTool candidate : document.candidates()) {
                    ToolApproved approval = approve(candidate);
                    long start = System.nanoTime();
                    BuildResult result = builder.build(approval);
                    toolNanos.add(System.nanoTime() - start);
                    if (result.wrapper() != null) {
                        generated++;
                    }
                    if (result.succeeded()) {
                        verified++;
                    } else {
                        failed.add(mapper.createObjectNode().put("tool", candidate.manifest().id())
                                .put("reason", result.failureReason()));
                        reasons.merge(category(result.failureReason()), 1, Integer::sum);
                    }
                    if (details != null) {
                        ObjectNode line = mapper.createObjectNode().put("tool", candidate.manifest().id())
                                .put("file", file.getFileName().toString()).put("operation", candidate.operationKey())
                                .put("succeeded", result.succeeded()).put("reason", result.failureReason());
                        line.set("report", mapper.valueToTree(result.report()));
                        details.write(mapper.writeValueAsString(line));
                        details.newLine();
                    }
                }
            }
        }
        Collections.sort(toolNanos);
        double p50 = toolNanos.isEmpty() ? 0 : toolNanos.get((toolNanos.size() - 1) / 2) / 1_000_000.0;
        System.out.println("specs: " + files.size() + ", operations: " + operations + ", generated: " + generated
                + ", verified: " + verified + String.format(" (%.1f%%)", operations == 0 ? 0 : 100.0 * verified / operations));
        reasons.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed()).limit(10)
                .forEach(e -> System.out.println("  " + e.getValue() + " x " + e.getKey()));
        ObjectNode summary = mapper.createObjectNode().put("operations", operations).put("generated", generated)
                .put("verified", verified);
        summary.set("failed", failed);
        summary.put("ms_per_tool_p50", Math.round(p50 * 100.0) / 100.0);
        System.out.println(mapper.writeValueAsString(summary));
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
                Instant.now());
    }

    private static String category(String reason) {
        if (reason == null) {
            return "";
        }
        String text = reason.replaceAll("'[^']*'", "'…'").replaceAll("\\d+", "N");
        return text.length() > 140 ? text.substring(0, 140) : text;
    }

    private static void usage() {
        System.err.println("usage: WrapperBenchmark --specs DIR [--out FILE]");
        System.exit(2);
    }
}
