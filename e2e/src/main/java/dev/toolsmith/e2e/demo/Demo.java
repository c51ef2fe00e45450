package dev.toolsmith.e2e.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.e2e.PlannerOptions;
import dev.toolsmith.planner.kafka.PlanStepChannel;
import dev.toolsmith.planner.kafka.PlannerKafka;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./toolsmith demo}: the whole flow against a running platform, printed stage by stage.
 *
 * <ol>
 *   <li>serves a real FX-rates API with its OpenAPI document on localhost;</li>
 *   <li>registers the document as an airlock source and scans it;</li>
 *   <li>approves {@code convertAmount} with a usage policy and waits for the engineer's verified build;</li>
 *   <li>as a planner, sends {@code CONVERT_CURRENCY} (a verb nothing registers) over Kafka: search,
 *       substitution with its confidence, execution against the API, result;</li>
 *   <li>sends it again: the learned alias serves it;</li>
 *   <li>sends a step nothing can serve and shows the capability gap it leaves in the airlock;</li>
 *   <li>over MCP: a scripted raw JSON-RPC session finds, describes, loads, calls and unloads the tool;</li>
 *   <li>the reference planner agent reaches a goal over MCP, its LLM the one TOOLSMITH_LLM_* names or recorded
 *       answers played by a local WireMock ({@link McpDemo}).</li>
 * </ol>
 * Any stage that does not happen ends the demo with a non-zero exit code and the reason.
 */
public final class Demo {

    static final String NOVEL_VERB = "CONVERT_CURRENCY";
    static final String UNSERVABLE_VERB = "BOOK_MEETING_ROOM";
    private static final Duration BUILD_WAIT = Duration.ofMinutes(3);
    private static final Duration STEP_WAIT = Duration.ofSeconds(60);
    /** The librarian's default (SearchDefaults.SUBSTITUTION_THRESHOLD), to explain a substitution below it. */
    private static final double DEFAULT_THRESHOLD = 0.95;

    private final AirlockAdmin airlock;
    private final PlatformClient capabilities;
    private final PlanStepChannel steps;
    private final String caller;
    private final String capabilitiesUrl;
    private final String plannerKey;
    private McpDemo mcp;
    private final String planId = "demo-plan-" + UUID.randomUUID().toString().substring(0, 8);

    /**
     * {@code kafkaLogin}: the planner's Kafka login ({@link PlannerKafka#login}), empty for a plain broker;
     * {@code caller} and {@code plannerKey}: the planner's API key and the name it is configured under, which sign
     * every step it sends (docs/events.md, "Signing a plan step").
     */
    public Demo(String bootstrap, Map<String, Object> kafkaLogin, String librarianUrl, String capabilitiesUrl,
            String adminKey, String caller, String plannerKey) {
        this.airlock = new AirlockAdmin(librarianUrl, adminKey);
        this.capabilities = new PlatformClient(capabilitiesUrl, adminKey);
        this.steps = new PlanStepChannel(bootstrap, kafkaLogin, PlanStepSigner.of(caller, plannerKey), "planner-demo",
                "/toolsmith-demo");
        this.caller = caller;
        this.capabilitiesUrl = capabilitiesUrl;
        this.plannerKey = plannerKey;
        this.mcp = new McpDemo(capabilitiesUrl, plannerKey, Map.of());
    }

    /**
     * The LLM of the planner agent (stage 9): the one {@code env}'s TOOLSMITH_LLM_BASE_URL, TOOLSMITH_LLM_MODEL and
     * TOOLSMITH_LLM_API_KEY name; without TOOLSMITH_LLM_BASE_URL (and by default) recorded answers are played.
     */
    public Demo llmFrom(Map<String, String> env) {
        Map<String, String> llm = new java.util.HashMap<>();
        env.forEach((name, value) -> {
            if (name.startsWith("TOOLSMITH_LLM_") && value != null && !value.isBlank()) {
                llm.put(name, value);
            }
        });
        this.mcp = new McpDemo(capabilitiesUrl, plannerKey, llm);
        return this;
    }

    public static void main(String[] argv) {
        System.exit(new CommandLine(new Cli()).execute(argv));
    }

    /**
     * The command line of {@code ./toolsmith demo}. Exit codes: 0 every stage happened, 1 a stage did not,
     * 2 a wrong option (with the usage) or an unexpected error.
     */
    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = "The whole Toolsmith flow against a running platform, printed stage by stage.")
    static final class Cli implements Callable<Integer> {

        @Mixin
        PlannerOptions planner;

        @Option(names = "--librarian", required = true, paramLabel = "URL", description = "the librarian's base URL")
        String librarian;

        @Option(names = "--capabilities", required = true, paramLabel = "URL",
                description = "the capabilities manager's base URL")
        String capabilities;

        @Option(names = "--admin-key", required = true, paramLabel = "KEY", description = "an admin API key")
        String adminKey;

        // where the FX API listens and what its URLs say: compose-test passes the container network's gateway,
        // so the containerised platform can reach it
        @Option(names = "--api-host", defaultValue = "127.0.0.1", paramLabel = "HOST",
                description = "where the demo's FX API listens (default ${DEFAULT-VALUE})")
        String apiHost;

        @Override
        public Integer call() {
            Map<String, Object> kafkaLogin = planner.kafkaLogin(); // a usage error before the API starts
            try (FxRatesApi api = new FxRatesApi("fx-rates", "", apiHost)) {
                new Demo(planner.bootstrap(), kafkaLogin, librarian, capabilities, adminKey, planner.caller(),
                        planner.plannerKey()).llmFrom(System.getenv()).run(api);
                System.out.println("\nDemo complete: every stage happened.");
                return 0;
            } catch (DemoFailure e) {
                System.err.println("\nDEMO FAILED at stage '" + e.stage + "': " + e.getMessage());
                return 1;
            } catch (RuntimeException e) {
                System.err.println("\nDEMO FAILED: " + e);
                return 2;
            }
        }
    }

    /** Runs every stage against {@code api}; throws {@link DemoFailure} naming the stage that did not happen. */
    public void run(FxRatesApi api) {
        try (steps) {
            stage("1. an external API", () -> System.out.println("   FX rates API serving " + api.documentUrl()));
            forgetEarlierRuns();
            String sourceId = registerAndScan(api);
            JsonNode candidate = findCandidate(sourceId, "CONVERT_AMOUNT");
            approveAndAwaitBuild(candidate);
            int before = api.conversions();
            substitute();
            if (api.conversions() <= before) {
                throw new DemoFailure("5. execution", "the FX API received no conversion request");
            }
            learnedAlias();
            unresolvable();
            String toolId = candidate.path("toolId").asText();
            stage("8. MCP: a raw JSON-RPC session finds, describes, loads, calls and unloads the tool", () -> {
                try {
                    mcp.rawSession(toolId, candidate.path("verb").asText());
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
            });
            stage("9. MCP: the reference planner agent reaches a goal", () -> {
                try {
                    mcp.agent(toolId);
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
        }
    }

    private void forgetEarlierRuns() {
        // A verb learned in an earlier run would take the alias path at once; start from scratch.
        int status = capabilities.delete("/aliases/" + NOVEL_VERB);
        if (status == 204) {
            System.out.println("   (forgot the alias " + NOVEL_VERB + " learned by an earlier run)");
        }
    }

    private String registerAndScan(FxRatesApi api) {
        return stage("2. register and scan the source", () -> {
            JsonNode scanned = airlock.registerAndScan("FX rates demo " + planId, api.documentUrl());
            JsonNode counts = scanned.path("counts");
            System.out.printf("   source %s: status %s, %d operations found, %d new%n", scanned.path("id").asText(),
                    scanned.path("status").asText(), counts.path("found").asInt(), counts.path("added").asInt());
            return scanned.path("id").asText();
        });
    }

    private JsonNode findCandidate(String sourceId, String verb) {
        return stage("3. the review queue", () -> {
            for (JsonNode item : airlock.pending(sourceId)) {
                System.out.printf("   pending: %-18s %-13s %s%n", item.path("verb").asText(), item.path("risk").asText(),
                        item.path("description").asText().lines().findFirst().orElse(""));
            }
            return airlock.candidate(sourceId, verb);
        });
    }

    private void approveAndAwaitBuild(JsonNode candidate) {
        stage("4. approve with a policy and wait for the verified build", () -> {
            ObjectNode policy = airlock.newObject();
            policy.putObject("rateLimit").put("perSecond", 5).put("burst", 10);
            policy.putObject("quota").put("perDay", 1000);
            policy.putObject("budget").put("currency", "EUR").put("costPerCall", 0.001).put("softLimit", 5)
                    .put("hardLimit", 10);
            policy.putArray("allowedCallers").add(caller);
            System.out.println("   approving " + candidate.path("toolId").asText() + " with " + policy);
            JsonNode details = airlock.approveAndAwaitActive(candidate, policy, BUILD_WAIT);
            JsonNode cases = details.path("buildReport").path("cases");
            int passed = 0;
            for (JsonNode verificationCase : cases) {
                passed += verificationCase.path("passed").asBoolean() ? 1 : 0;
            }
            System.out.printf("   engineer verified the wrapper: %d of %d generated cases passed; %s is ACTIVE in the catalog%n",
                    passed, cases.size(), candidate.path("toolId").asText());
        });
    }

    private void substitute() {
        stage("5. a novel verb over Kafka: search, substitution, execution", () -> {
            StepResult result = send(NOVEL_VERB, "Convert 100 euros into US dollars",
                    Map.of("amount", literal(100), "from", literal("EUR"), "to", literal("USD")));
            expect(result, StepStatus.SUBSTITUTED, "5. substitution");
            if (result.substitution().viaAlias()) {
                throw new DemoFailure("5. substitution", "the first step should be found by search, not an alias");
            }
            printSubstitution(result);
            return null;
        });
    }

    private void learnedAlias() {
        stage("6. the same verb again: the learned alias", () -> {
            StepResult result = send(NOVEL_VERB, "Convert 250 pounds into Swiss francs",
                    Map.of("amount", literal(250), "from", literal("GBP"), "to", literal("CHF")));
            expect(result, StepStatus.SUBSTITUTED, "6. learned alias");
            if (!result.substitution().viaAlias()) {
                throw new DemoFailure("6. learned alias", "the second step searched again instead of using the alias");
            }
            printSubstitution(result);
            return null;
        });
    }

    private void unresolvable() {
        stage("7. a step nothing can serve: the capability gap", () -> {
            StepResult result = send(UNSERVABLE_VERB, "Reserve a meeting room for six people in the Berlin office on Tuesday",
                    Map.of("office", literal("Berlin"), "people", literal(6), "day", literal("Tuesday")));
            expect(result, StepStatus.UNRESOLVED, "7. unresolved");
            System.out.println("   " + result.error());
            result.candidates().stream().limit(3).forEach(hit -> System.out.printf(
                    "   nearest: %-40s confidence %.2f%n", hit.toolId(), hit.confidence()));
            JsonNode gap = Poll.until(STEP_WAIT, () -> {
                for (JsonNode g : airlock.gaps()) {
                    if (UNSERVABLE_VERB.equals(g.path("actionVerb").asText())) {
                        return g;
                    }
                }
                return null;
            }).orElseThrow(() -> new DemoFailure("7. gap", "the airlock never recorded a gap for " + UNSERVABLE_VERB));
            System.out.printf("   airlock gap recorded: '%s' seen %d time(s); %d queued candidate(s) tagged for review%n",
                    gap.path("normalizedVerb").asText(), gap.path("timesSeen").asLong(), gap.path("matches").size());
            return null;
        });
    }

    private StepResult send(String verb, String description, Map<String, StepInput> inputs) {
        PlanStep step = new PlanStep(UUID.randomUUID().toString(), planId, verb, description, inputs,
                Map.of("result", "the answer"), caller);
        System.out.println("   planner -> plan-steps: " + verb + " " + inputsText(inputs) + "  (step " + step.stepId() + ")");
        StepResult result = steps.sendAndAwait(step, STEP_WAIT)
                .orElseThrow(() -> new DemoFailure(verb, "no result on step-results within " + STEP_WAIT.toSeconds() + " s"));
        System.out.println("   step-results -> planner: " + result.status()
                + (result.outputs().isEmpty() ? "" : " outputs " + result.outputs()));
        return result;
    }

    private static void expect(StepResult result, StepStatus wanted, String stage) {
        if (result.status() != wanted) {
            throw new DemoFailure(stage, "expected " + wanted + " but got " + result.status()
                    + (result.error() == null ? "" : ": " + result.error()));
        }
    }

    private static void printSubstitution(StepResult result) {
        System.out.printf("   %s served by %s (v%d), search confidence %.3f, via alias: %s, inputs mapped %s%n",
                result.substitution().fromVerb(), result.servedBy().toolId(), result.servedBy().version(),
                result.substitution().confidence(), result.substitution().viaAlias(), result.substitution().inputMapping());
        if (!result.substitution().viaAlias() && result.substitution().confidence() < DEFAULT_THRESHOLD) {
            System.out.printf("   (below the %.2f substitution threshold: served by the contract-confirmed rule, which this"
                    + " deployment switched on, because the step's inputs are exactly the tool's parameters;"
                    + " docs/capabilities-manager.md)%n", DEFAULT_THRESHOLD);
        }
    }

    private static String inputsText(Map<String, StepInput> inputs) {
        StringBuilder text = new StringBuilder("{");
        inputs.forEach((name, input) -> text.append(text.length() > 1 ? ", " : "").append(name).append('=')
                .append(input.value()));
        return text.append('}').toString();
    }

    private static StepInput literal(Object value) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (value instanceof Integer number) {
            return StepInput.literal(nodes.numberNode(number), "number");
        }
        return StepInput.literal(nodes.textNode(String.valueOf(value)), "string");
    }

    private static <T> T stage(String name, java.util.function.Supplier<T> body) {
        System.out.println("\n== " + name);
        try {
            return body.get();
        } catch (DemoFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw new DemoFailure(name, e.getMessage());
        }
    }

    private static void stage(String name, Runnable body) {
        stage(name, () -> {
            body.run();
            return null;
        });
    }

    /** A stage of the demo that did not happen. */
    public static final class DemoFailure extends RuntimeException {
        private final String stage;

        public DemoFailure(String stage, String reason) {
            super(reason);
            this.stage = stage;
        }

        public String stage() {
            return stage;
        }
    }
}
