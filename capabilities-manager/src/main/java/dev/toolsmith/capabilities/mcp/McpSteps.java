package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.capabilities.step.StepService;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Runs an MCP call as a plan step: the same {@link StepService#process} the Kafka and REST doors call, so
 * policy, sandbox, schema checks, usage, health, audit and the {@code step-results} event are exactly those
 * of a step. Each call is a step of its own (a fresh step id) in the plan {@code mcp-<session id>}, run as the
 * authenticated caller on a Vert.x duplicated context of its own, as the Kafka door does.
 */
@ApplicationScoped
public class McpSteps {

    private final StepService steps;
    private final Vertx vertx;
    private final ObjectMapper mapper;

    public McpSteps(StepService steps, Vertx vertx, ContractCodec codec) {
        this.steps = steps;
        this.vertx = vertx;
        this.mapper = codec.mapper();
    }

    /** The plan id of a session's calls: {@code GET /plans/mcp-<session>/steps} lists them. */
    public static String planOf(String sessionId) {
        return "mcp-" + (sessionId == null ? "sessionless" : sessionId);
    }

    public Uni<StepResult> run(String sessionId, String verb, String description, Map<String, Object> arguments,
            String caller, String chosenToolId) {
        Map<String, StepInput> inputs = new LinkedHashMap<>();
        if (arguments != null) {
            arguments.forEach((name, value) -> inputs.put(name, StepInput.literal(mapper.valueToTree(value), null)));
        }
        PlanStep step = new PlanStep("mcp-" + UUID.randomUUID(), planOf(sessionId), verb, description, inputs, Map.of(),
                caller, chosenToolId);
        CompletableFuture<StepResult> result = new CompletableFuture<>();
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        context.runOnContext(ignored -> steps.process(step).subscribe().with(outcome -> {
            if (outcome.result() == null) {
                result.completeExceptionally(new IllegalStateException("step " + step.stepId() + " gave no result"));
            } else {
                result.complete(outcome.result());
            }
        }, result::completeExceptionally));
        return Uni.createFrom().completionStage(result);
    }
}
