package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.capabilities.config.DecompositionLlmConfig;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.llm.UnreadableAnswer;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.eventing.logging.ErrorSummary;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * ACCOMPLISH: asks an LLM to break a step nothing serves into steps of registered verbs. The prompt
 * lists the registry's verbs with their descriptions and inputs ({@link DecompositionPrompts}); the
 * AI service {@link DecompositionLlm} reads the answer into a {@link ProposedPlan}, which
 * {@link DecompositionValidator} checks. An invalid or unreadable answer is sent back once with the
 * problems, then the decomposer gives up: two LLM calls at most. Runs only when an LLM is configured
 * ({@link DecompositionLlmConfig#configured()}).
 *
 * <p>Why the re-ask is a second stateless call rather than an {@code OutputGuardrail} that reprompts:
 * langchain4j 1.14's {@code OutputGuardrailExecutor} sends, without a chat memory, only the reprompt
 * message (the system prompt with the verbs and the step are lost), and its {@code maxRetries} counts
 * attempts so that it validates fewer answers than it asks for. A memory only for this would make the
 * service stateful per step. Two calls through one method, the second carrying the step, the previous
 * answer as it was read and the problems, keep the old behaviour exactly and are plain to test.
 */
@ApplicationScoped
public class PlanDecomposer {

    private static final Logger LOG = Logger.getLogger(PlanDecomposer.class);

    private final DecompositionLlmConfig config;
    private final DecompositionLlm llm;
    private final PluginRegistry registry;
    private final DecompositionValidator validator;
    private final ObjectMapper mapper;

    public PlanDecomposer(DecompositionLlmConfig config, DecompositionLlm llm, PluginRegistry registry, ContractCodec codec) {
        this.config = config;
        this.llm = llm;
        this.registry = registry;
        this.validator = new DecompositionValidator(config.maxPlanSteps());
        this.mapper = codec.mapper();
    }

    /** A plan of registered verbs, or why there is none. */
    public record Decomposition(List<PlanStep> plan, String failure) {

        public boolean succeeded() {
            return plan != null;
        }
    }

    public boolean available() {
        return config.configured();
    }

    /** Blocking LLM calls run on a worker thread; the caller returns to its own context. */
    public Uni<Decomposition> decompose(PlanStep step, ObjectNode inputs) {
        if (!available()) {
            return Uni.createFrom().item(new Decomposition(null, "no LLM is configured for decomposition"));
        }
        Object traceId = MDC.get("traceId"); // the step's, read on its context before the hop to a worker
        return Uni.createFrom().item(() -> {
            try {
                if (traceId != null) {
                    MDC.put("traceId", traceId);
                }
                return decomposeBlocking(step, inputs);
            } finally {
                MDC.remove("stepId"); // worker threads are shared
                MDC.remove("planId");
                MDC.remove("traceId");
            }
        })
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    Decomposition decomposeBlocking(PlanStep step, ObjectNode inputs) {
        MDC.put("stepId", step.stepId());
        MDC.put("planId", step.planId());
        String instructions = DecompositionPrompts.instructions(registry.all(), config.maxVerbsInPrompt());
        String stepPrompt = DecompositionPrompts.step(step, inputs);
        String request = stepPrompt;
        List<String> problems = List.of();
        for (int attempt = 1; attempt <= 2; attempt++) {
            ProposedPlan answer = null;
            OutputParsingException unreadable = null;
            try {
                answer = llm.propose(instructions, request);
            } catch (RuntimeException e) {
                unreadable = UnreadableAnswer.cause(e, OutputParsingException.class).orElse(null);
                if (unreadable == null) {
                    String reason = ErrorSummary.firstLine(e.getMessage());
                    LOG.warnf("decomposition of %s: the LLM call failed: %s", step.stepId(), reason);
                    return new Decomposition(null, "the LLM could not be reached: " + reason);
                }
            }
            String previousAnswer;
            if (unreadable == null) {
                DecompositionValidator.Result result = validator.validate(answer, step,
                        verb -> registry.byVerb(verb).filter(Plugin::serves));
                if (result.valid()) {
                    return new Decomposition(result.plan(), null);
                }
                problems = result.errors();
                previousAnswer = asRead(answer);
            } else {
                problems = List.of(UnreadableAnswer.reason(unreadable));
                previousAnswer = "(not readable as the JSON object asked for)";
            }
            LOG.infof("decomposition of %s, attempt %d rejected: %s", step.stepId(), attempt, problems);
            request = DecompositionPrompts.correction(stepPrompt, previousAnswer, problems);
        }
        return new Decomposition(null, "the LLM's decomposition was rejected twice: " + String.join("; ", problems));
    }

    /** The answer as it was read, for the model to correct; inputs keep the form the model wrote. */
    private String asRead(ProposedPlan answer) {
        try {
            return mapper.writeValueAsString(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a proposed plan read from JSON could not be written back", e);
        }
    }
}
