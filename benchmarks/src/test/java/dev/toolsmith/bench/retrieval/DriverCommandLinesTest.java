package dev.toolsmith.bench.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The command lines of the offline drivers as docs/search-measurements.md writes them parse to what the driver
 * computes with, and a bad one is picocli's usage error (exit 2) before any dump is read: no data files here.
 */
class DriverCommandLinesTest {

    private static final String STEPS = "/tmp/steps-hybrid.tsv:/tmp/steps-bm25.tsv";
    private static final String SEAL = "/tmp/seal-hybrid.tsv:/tmp/seal-bm25.tsv";

    @Test
    void cascadeCheckReadsDumpPairsAndFeatureNames() {
        CascadeCheck check = new CascadeCheck();
        new CommandLine(check).parseArgs("--train", STEPS + "," + SEAL, "--eval", STEPS, "--zero-bm25", "zLexical");
        assertThat(check.dumps.train).containsExactly(
                new StepDumpOptions.DumpPair(Path.of("/tmp/steps-hybrid.tsv"), Path.of("/tmp/steps-bm25.tsv")),
                new StepDumpOptions.DumpPair(Path.of("/tmp/seal-hybrid.tsv"), Path.of("/tmp/seal-bm25.tsv")));
        assertThat(check.dumps.eval).hasSize(1);
        assertThat(check.dumps.zeroBm25).containsExactly(CascadeCheck.FEATURES.indexOf("zLexical"));
        assertThat(check.dumps.zeroHybrid).isNull();
        assertThat(check.dumps.threshold).isEqualTo(0.95);

        Usage unknownFeature = Usage.of(new CascadeCheck(), "--train", SEAL, "--eval", STEPS, "--zero-bm25", "zLex");
        assertThat(unknownFeature.exitCode).isEqualTo(2);
        assertThat(unknownFeature.err).contains("unknown feature zLex");
    }

    @Test
    void confidenceFitReadsCommaListsAndTheSplitFlag() {
        ConfidenceFit fit = new ConfidenceFit();
        new CommandLine(fit).parseArgs("--train", "/tmp/metatool-hybrid.tsv,/tmp/gorilla-hybrid.tsv", "--split");
        assertThat(fit.trainFiles).containsExactly(Path.of("/tmp/metatool-hybrid.tsv"), Path.of("/tmp/gorilla-hybrid.tsv"));
        assertThat(fit.evalFiles).isNull();
        assertThat(fit.split).isTrue();

        Usage noTrain = Usage.of(new ConfidenceFit(), "--eval", "/tmp/gorilla-hybrid.tsv");
        assertThat(noTrain.exitCode).isEqualTo(2);
        assertThat(noTrain.err).contains("--train");
    }

    @Test
    void priorShiftAnalysisRefusesFreeTextAgainstStepPairs() {
        PriorShiftAnalysis analysis = new PriorShiftAnalysis();
        new CommandLine(analysis).parseArgs("--train", SEAL, "--eval", STEPS, "--max-shift", "1");
        assertThat(analysis.train).isEqualTo(SEAL);
        assertThat(analysis.maxShift).isEqualTo(1);
        PriorShiftAnalysis unbounded = new PriorShiftAnalysis();
        new CommandLine(unbounded).parseArgs("--train", "a.tsv", "--eval", "b.tsv");
        assertThat(unbounded.maxShift).isInfinite();

        Usage mixed = Usage.of(new PriorShiftAnalysis(), "--train", SEAL, "--eval", "/tmp/gorilla-hybrid.tsv");
        assertThat(mixed.exitCode).isEqualTo(2);
        assertThat(mixed.err).contains("both hybrid.tsv:bm25.tsv items");
    }

    @Test
    void stepCalibrationRefusesCoefficientsThatAreNoNumbers() {
        StepCalibration calibration = new StepCalibration();
        new CommandLine(calibration).parseArgs("--train", SEAL, "--eval", STEPS, "--min-block", "0.05",
                "--hybrid-coefficients", "{-5.5841, 1.2}");
        assertThat(calibration.minBlock).isEqualTo(0.05);
        assertThat(calibration.hybridCoefficients).isEqualTo("{-5.5841, 1.2}");
        StepCalibration defaults = new StepCalibration();
        new CommandLine(defaults).parseArgs("--train", SEAL, "--eval", STEPS);
        assertThat(defaults.minBlock).isEqualTo(StepCalibration.MIN_BLOCK_SHARE);

        Usage notNumbers = Usage.of(new StepCalibration(), "--train", SEAL, "--eval", STEPS,
                "--bm25-coefficients", "{-1.0, x}");
        assertThat(notNumbers.exitCode).isEqualTo(2);
        assertThat(notNumbers.err).contains("--bm25-coefficients: not a list of numbers");
        Usage notAPair = Usage.of(new StepCalibration(), "--train", "/tmp/seal-hybrid.tsv", "--eval", STEPS);
        assertThat(notAPair.exitCode).isEqualTo(2);
        assertThat(notAPair.err).contains("expected hybrid.tsv:bm25.tsv");
    }

    @Test
    void stepCalibrationNeedsOneAbsentPairPerSetAndASensibleShare() {
        Usage noAbsent = Usage.of(new StepCalibration(), "--train", SEAL, "--eval", STEPS, "--absent-share", "0.1");
        assertThat(noAbsent.exitCode).isEqualTo(2);
        assertThat(noAbsent.err).contains("--absent-share needs one --train-absent pair per --train pair (1), got 0");
        Usage tooMuch = Usage.of(new StepCalibration(), "--train", SEAL, "--train-absent", SEAL, "--eval", STEPS,
                "--absent-share", "0.95");
        assertThat(tooMuch.exitCode).isEqualTo(2);
        assertThat(tooMuch.err).contains("--absent-share must be at least 0 and below 0.9");
        Usage noShare = Usage.of(new StepCalibration(), "--train", SEAL, "--train-absent", SEAL, "--eval", STEPS);
        assertThat(noShare.exitCode).isEqualTo(2);
        assertThat(noShare.err).contains("--train-absent is mixed in only with --absent-share above 0");
        Usage unevenEval = Usage.of(new StepCalibration(), "--train", SEAL, "--eval", STEPS + "," + SEAL,
                "--eval-absent", STEPS);
        assertThat(unevenEval.exitCode).isEqualTo(2);
        assertThat(unevenEval.err).contains("--eval-absent needs one pair per --eval pair (2), got 1");
    }

    @Test
    void retrievalBenchmarkTakesTheStepConfidenceByName() {
        RetrievalBenchmark run = new RetrievalBenchmark();
        new CommandLine(run).parseArgs("--tools", "t.jsonl", "--queries", "q.jsonl", "--step-confidence", "Cautious");
        assertThat(run.stepConfidence).isEqualTo(dev.toolsmith.search.StepConfidence.CAUTIOUS);
        RetrievalBenchmark defaults = new RetrievalBenchmark();
        new CommandLine(defaults).parseArgs("--tools", "t.jsonl", "--queries", "q.jsonl");
        assertThat(defaults.stepConfidence).isEqualTo(dev.toolsmith.search.StepConfidence.STANDARD);
        Usage typo = Usage.of(new RetrievalBenchmark(), "--tools", "t.jsonl", "--queries", "q.jsonl",
                "--step-confidence", "careful");
        assertThat(typo.exitCode).isEqualTo(2);
        assertThat(typo.err).contains("--step-confidence must be standard or cautious, got 'careful'");
    }

    @Test
    void stepCalibrationZeroesTheNamedFeaturesLikeCascadeCheck() {
        StepCalibration calibration = new StepCalibration();
        new CommandLine(calibration).parseArgs("--train", SEAL, "--eval", STEPS, "--zero-hybrid", "zDense,margin");
        assertThat(calibration.dumps.zeroHybridColumns()).containsExactlyInAnyOrder(CascadeCheck.FEATURES.indexOf("zDense"),
                CascadeCheck.FEATURES.indexOf("margin"));
        assertThat(calibration.dumps.zeroBm25Columns()).isEmpty();
        Usage unknown = Usage.of(new StepCalibration(), "--train", SEAL, "--eval", STEPS, "--zero-hybrid", "zdense");
        assertThat(unknown.exitCode).isEqualTo(2);
        assertThat(unknown.err).contains("unknown feature zdense");
    }

    @Test
    void moreToolsJoinTheCatalogAfterItsOwnAndAnIdInTwoFilesIsRefused(@TempDir Path dir) throws Exception {
        Path own = java.nio.file.Files.writeString(dir.resolve("own.jsonl"),
                "{\"id\":\"a\",\"name\":\"a\"}\n{\"id\":\"b\",\"name\":\"b\"}\n");
        Path other = java.nio.file.Files.writeString(dir.resolve("other.jsonl"), "{\"id\":\"c\",\"name\":\"c\"}\n");
        Path clash = java.nio.file.Files.writeString(dir.resolve("clash.jsonl"), "{\"id\":\"b\",\"name\":\"b2\"}\n");
        Path twice = java.nio.file.Files.writeString(dir.resolve("twice.jsonl"),
                "{\"id\":\"d\",\"name\":\"d\"}\n{\"id\":\"d\",\"name\":\"d2\"}\n");
        Path noId = java.nio.file.Files.writeString(dir.resolve("no-id.jsonl"), "{\"name\":\"e\"}\n");
        Path nul = java.nio.file.Files.writeString(dir.resolve("nul.jsonl"), "{\"id\":\"f\u0000\n");
        RetrievalBenchmark run = parse(own, other.toString());
        assertThat(run.catalog.rawTools()).extracting(t -> t.path("id").asText()).containsExactly("a", "b", "c");

        assertRefused(parse(own, other + "," + clash), "--more-tools " + clash + ": tool id 'b' is already in " + own);
        assertRefused(parse(own, other + "," + other), "--more-tools " + other + ": tool id 'c' is already in " + other);
        assertRefused(parse(own, twice.toString()), "--more-tools " + twice + ": tool id 'd' is already in " + twice);
        assertRefused(parse(own, noId.toString()), "--more-tools " + noId + ": tool 1 has no id");
        assertRefused(parse(own, nul.toString()), "--more-tools " + nul + ": not a tools.jsonl file");
        assertRefused(parse(own, dir.resolve("missing.jsonl").toString()),
                "--more-tools " + dir.resolve("missing.jsonl") + ": no such file");
        assertRefused(parse(dir.resolve("gone.jsonl"), other.toString()), "--tools " + dir.resolve("gone.jsonl") + ": no such file");
    }

    private static RetrievalBenchmark parse(Path tools, String moreTools) {
        RetrievalBenchmark run = new RetrievalBenchmark();
        new CommandLine(run).parseArgs("--tools", tools.toString(), "--queries", "q.jsonl", "--more-tools", moreTools);
        return run;
    }

    private static void assertRefused(RetrievalBenchmark run, String message) {
        org.assertj.core.api.Assertions.assertThatThrownBy(run.catalog::rawTools)
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining(message);
    }

    @Test
    void stepSetGeneratorTakesSpecsOrToolsNotBoth() {
        StepSetGenerator generator = new StepSetGenerator();
        new CommandLine(generator).parseArgs("--specs", "../shared/data/openapi/specs", "--out", "benchmarks/data/steps");
        assertThat(generator.source.specs).isEqualTo(Path.of("../shared/data/openapi/specs"));
        assertThat(generator.source.tools).isNull();
        assertThat(generator.out).isEqualTo(Path.of("benchmarks/data/steps"));

        for (List<String> bad : List.of(List.of("--specs", "s", "--tools", "t.jsonl", "--out", "o"),
                List.of("--out", "o"), List.of("--tools", "t.jsonl"), List.of("--specs", "s", "--out", "o", "--seed", "1"))) {
            assertThat(Usage.of(new StepSetGenerator(), bad.toArray(String[]::new)).exitCode).as("%s", bad).isEqualTo(2);
        }
    }

    @Test
    void aCandidateDumpWithTheRightToolsHiddenIsAUsageError() {
        Usage both = Usage.of(new RetrievalBenchmark(), "--tools", "/tmp/none-tools.jsonl", "--queries",
                "/tmp/none-queries.jsonl", "--without-gold", "true", "--dump-candidates", "/tmp/c.tsv");
        assertThat(both.exitCode).isEqualTo(2);
        assertThat(both.err).contains("--without-gold true and --dump-candidates do not go together");
    }

    /** What {@code execute} returned and wrote to stderr. */
    private record Usage(int exitCode, String err) {
        static Usage of(Object command, String... args) {
            StringWriter err = new StringWriter();
            int exitCode = new CommandLine(command).setErr(new PrintWriter(err)).execute(args);
            return new Usage(exitCode, err.toString());
        }
    }
}
