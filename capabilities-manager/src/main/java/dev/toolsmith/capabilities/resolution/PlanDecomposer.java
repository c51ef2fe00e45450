package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.toolsmith.capabilities.config.DecompositionLlmConfig;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.eventing.logging.ErrorSummary;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * ACCOMPLISH: asks an LLM to break a step nothing serves into steps of registered verbs. The prompt
 * lists the registry's verbs with their descriptions and inputs; the answer is validated
 * ({@link DecompositionValidator}); an invalid answer is sent back once with the problems, then the
 * decomposer gives up. Runs only when an LLM is configured ({@link DecompositionLlmConfig#configured()}).
 */
@ApplicationScoped
public class PlanDecomposer {

    private static final Logger LOG = Logger.getLogger(PlanDecomposer.class);

    private final DecompositionLlmConfig config;
    private final ChatModel model;
    private final PluginRegistry registry;
    private final DecompositionValidator validator;

    public PlanDecomposer(DecompositionLlmConfig config, ChatModel model, PluginRegistry registry, ContractCodec codec) {
        this.config = config;
        this.model = model;
        this.registry = registry;
        this.validator = new DecompositionValidator(codec.mapper(), config.maxPlanSteps());
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
        List<ChatMessage> conversation = new ArrayList<>();
        conversation.add(SystemMessage.from(systemPrompt()));
        conversation.add(UserMessage.from(stepPrompt(step, inputs)));
        List<String> lastErrors = List.of();
        for (int attempt = 1; attempt <= 2; attempt++) {
            String answer;
            try {
                answer = model.chat(conversation).aiMessage().text();
            } catch (RuntimeException e) {
                String reason = firstLine(e.getMessage());
                LOG.warnf("decomposition of %s: the LLM call failed: %s", step.stepId(), reason);
                return new Decomposition(null, "the LLM could not be reached: " + reason);
            }
            DecompositionValidator.Result result = validator.validate(answer, step,
                    verb -> registry.byVerb(verb).filter(Plugin::serves));
            if (result.valid()) {
                return new Decomposition(result.plan(), null);
            }
            lastErrors = result.errors();
            LOG.infof("decomposition of %s, attempt %d rejected: %s", step.stepId(), attempt, lastErrors);
            conversation.add(AiMessage.from(answer == null ? "" : answer));
            conversation.add(UserMessage.from("Your plan was rejected:\n- " + String.join("\n- ", lastErrors)
                    + "\nAnswer again with the corrected JSON object only."));
        }
        return new Decomposition(null, "the LLM's decomposition was rejected twice: " + String.join("; ", lastErrors));
    }

    private String systemPrompt() {
        StringBuilder prompt = new StringBuilder("""
                You decompose one step of a plan into a short sequence of steps that use ONLY the verbs listed \
                below. Answer with one JSON object and nothing else:
                {"steps": [{"stepId": "s1", "actionVerb": "<a listed verb>", "description": "<why>",
                            "inputs": {"<input name>": {"value": <JSON value>} or {"sourceStep": "<earlier stepId>", "outputName": "<its output>"}}}]}
                Rules: stepIds are unique; a sourceStep is an earlier step of your plan (or a step the original step \
                already refers to); give every required input; never use a verb that is not listed. If the \
                step cannot be done with these verbs, answer {"steps": []}.
                Verbs:
                """);
        registry.all().stream().filter(Plugin::serves).sorted(Comparator.comparing(Plugin::verb))
                .limit(config.maxVerbsInPrompt())
                .forEach(plugin -> prompt.append("- ").append(plugin.verb()).append(": ")
                        .append(plugin.manifest().description()).append(" Inputs: ")
                        .append(parameters(plugin.manifest().inputSchema())).append(". Outputs: ")
                        .append(parameters(plugin.manifest().outputSchema())).append(".\n"));
        return prompt.toString();
    }

    private static String parameters(JsonNode schema) {
        if (schema == null || !schema.path("properties").isObject()) {
            return "any";
        }
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        List<String> described = new ArrayList<>();
        schema.get("properties").fields().forEachRemaining(field -> described.add(field.getKey()
                + " (" + field.getValue().path("type").asText("any") + (required.contains(field.getKey()) ? ", required" : "")
                + ")"));
        return String.join(", ", described);
    }

    private static String stepPrompt(PlanStep step, ObjectNode inputs) {
        StringBuilder prompt = new StringBuilder("Step to decompose: ").append(step.actionVerb());
        if (step.description() != null) {
            prompt.append(" — ").append(step.description());
        }
        prompt.append("\nIts inputs:\n");
        for (Map.Entry<String, StepInput> input : new TreeMap<>(step.inputs()).entrySet()) {
            StepInput given = input.getValue();
            prompt.append("- ").append(input.getKey()).append(": ");
            if (given.isReference()) {
                prompt.append("{\"sourceStep\": \"").append(given.sourceStep()).append("\", \"outputName\": \"")
                        .append(given.outputName()).append("\"}");
                JsonNode resolved = inputs.get(input.getKey());
                if (resolved != null) {
                    prompt.append(" (currently ").append(abbreviate(resolved.toString())).append(")");
                }
            } else {
                prompt.append(abbreviate(Optional.ofNullable(given.value()).map(JsonNode::toString).orElse("null")));
            }
            prompt.append('\n');
        }
        return prompt.toString();
    }

    /** Client errors can carry whole response bodies and quote the key; the planner needs the gist. */
    private static String firstLine(String message) {
        return ErrorSummary.firstLine(message);
    }

    private static String abbreviate(String text) {
        return text.length() <= 500 ? text : text.substring(0, 500) + "…";
    }
}
