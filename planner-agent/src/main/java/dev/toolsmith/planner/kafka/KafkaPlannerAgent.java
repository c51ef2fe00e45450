package dev.toolsmith.planner.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.chat.ChatModel;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.PlanStepSigner;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.ToolChoice;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The planner agent's Kafka mode: the LLM writes a plan of steps (an action verb and inputs each), the agent sends
 * them one by one on {@code plan-steps}, signed as the planner, and follows {@code step-results}. A step that comes
 * back {@code UNRESOLVED} or {@code PROPOSED} is re-planned: the LLM sees the step's reason and the candidate tools in
 * brief from the result's {@code choices}, picks one (or gives up), and the agent sends a follow-up step naming the
 * chosen {@code toolId}, which the capabilities manager runs and learns as the verb's alias. A step that comes back
 * {@code DECOMPOSED} is served by the plan it carries: the agent sends those steps in order (they already refer to one
 * another by step id), and later references to the decomposed step read the last of them. Last, the LLM answers the
 * goal from the results. The plan, the choices and the answer are one conversation with the model per goal
 * ({@link PlanningChat}).
 */
public final class KafkaPlannerAgent implements AutoCloseable {

    /** How often one step is re-planned before the plan stops. */
    static final int MAX_REPLANS = 2;
    private static final Set<StepStatus> DONE = EnumSet.of(StepStatus.SUCCEEDED, StepStatus.SUBSTITUTED);
    private static final Set<StepStatus> NEEDS_A_CHOICE = EnumSet.of(StepStatus.UNRESOLVED, StepStatus.PROPOSED);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One step as sent and the result it got. */
    public record Turn(PlanStep step, StepResult result) {
    }

    /** The agent's answer, every step it sent with its result (follow-ups included), and how often it re-planned. */
    public record Outcome(String answer, List<Turn> turns, int replans) {
    }

    /** Sends one step and waits for its result. */
    interface StepSender extends AutoCloseable {
        StepResult sendAndAwait(PlanStep step);

        @Override
        void close();
    }

    private final ChatModel model;
    private final StepSender steps;
    private final String caller;
    private final Consumer<String> log;

    /** {@code log}: where the agent says what it does (the demo and the command line print it). */
    public KafkaPlannerAgent(ChatModel model, KafkaSettings settings, Consumer<String> log) {
        this(model, overKafka(settings), settings.caller(), log);
    }

    KafkaPlannerAgent(ChatModel model, StepSender steps, String caller, Consumer<String> log) {
        this.model = model;
        this.steps = steps;
        this.caller = caller;
        this.log = log;
    }

    private static StepSender overKafka(KafkaSettings settings) {
        PlanStepChannel channel = new PlanStepChannel(settings.bootstrap(), settings.login(),
                PlanStepSigner.of(settings.caller(), settings.plannerKey()), "planner-agent", "/toolsmith-planner-agent");
        return new StepSender() {
            @Override
            public StepResult sendAndAwait(PlanStep step) {
                return channel.sendAndAwait(step, settings.stepTimeout()).orElseThrow(() -> new IllegalStateException(
                        "no result for step " + step.stepId() + " on step-results within "
                                + settings.stepTimeout().toSeconds() + " s"));
            }

            @Override
            public void close() {
                channel.close();
            }
        };
    }

    public Outcome achieve(String goal) {
        String planId = "agent-" + UUID.randomUUID().toString().substring(0, 8);
        PlanningChat chat = PlanningChat.start(model);
        PlanSteps plan = chat.plan(goal, planId, caller);
        log.accept("plan " + planId + ": " + plan.steps().size() + " step(s)");
        List<Turn> turns = new ArrayList<>();
        int replans = 0;
        for (PlanStep planned : plan.steps()) {
            PlanStep step = plan.withResolvedReferences(planned);
            StepResult result = send(step);
            turns.add(new Turn(step, result));
            for (int tries = 0; NEEDS_A_CHOICE.contains(result.status()) && tries < MAX_REPLANS; tries++) {
                PlanSteps.Choice choice = chat.choose(replanRequest(step, result));
                if (choice.giveUp() != null) {
                    log.accept("the model gives up on " + step.actionVerb() + ": " + choice.giveUp());
                    break;
                }
                if (!offered(result, choice.toolId())) {
                    log.accept("the model chose " + choice.toolId() + ", which the result did not offer: not sent");
                    break;
                }
                replans++;
                step = plan.followUp(step, choice);
                result = send(step);
                turns.add(new Turn(step, result));
            }
            if (result.status() == StepStatus.DECOMPOSED) {
                Turn last = runDecomposition(step, result, turns);
                step = last.step();
                result = last.result();
            }
            plan.recordResult(planned, step);
            if (!DONE.contains(result.status())) {
                log.accept("the plan stops at " + step.actionVerb() + ": " + result.status());
                break;
            }
        }
        return new Outcome(chat.answer(resultsReport(turns)), List.copyOf(turns), replans);
    }

    /**
     * Sends the steps of a {@code DECOMPOSED} result's plan in order, as this agent's caller; stops at the first that is
     * not done. Returns the last turn: that step's outputs stand for the decomposed step's. A result with no plan, or
     * with more steps than a plan may have, is returned as it is (so the plan stops there). A sub-step that is
     * decomposed again is not followed further: the capabilities manager decomposes into registered verbs only. Nor
     * is a plan whose step ids are not the decomposed step's id plus a suffix, each once.
     */
    private Turn runDecomposition(PlanStep decomposed, StepResult result, List<Turn> turns) {
        List<PlanStep> subSteps = result.plan() == null ? List.of() : result.plan();
        if (subSteps.isEmpty() || subSteps.size() > PlanSteps.MAX_STEPS) {
            log.accept(decomposed.actionVerb() + " came back decomposed into " + subSteps.size() + " step(s): not followed");
            return new Turn(decomposed, result);
        }
        // The capabilities manager prefixes the plan's step ids with the decomposed step's id; an id outside that
        // (another step's, one this plan used already) would make its result stand for a step it is not.
        String prefix = decomposed.stepId() + "-";
        if (subSteps.stream().map(PlanStep::stepId).anyMatch(id -> id == null || !id.startsWith(prefix))
                || subSteps.stream().map(PlanStep::stepId).distinct().count() != subSteps.size()) {
            log.accept(decomposed.actionVerb() + " came back decomposed into steps whose ids are not its own: not followed");
            return new Turn(decomposed, result);
        }
        log.accept(decomposed.actionVerb() + " is decomposed into " + subSteps.size() + " step(s)");
        Turn last = null;
        for (PlanStep subStep : subSteps) {
            // The plan is the capabilities manager's; the steps run as this agent, within this plan.
            PlanStep mine = new PlanStep(subStep.stepId(), decomposed.planId(), subStep.actionVerb(), subStep.description(),
                    subStep.inputs(), subStep.outputs(), caller, null);
            last = new Turn(mine, send(mine));
            turns.add(last);
            if (!DONE.contains(last.result().status())) {
                break;
            }
        }
        return last;
    }

    private StepResult send(PlanStep step) {
        log.accept("-> plan-steps: " + step.actionVerb() + (step.toolId() == null ? "" : " toolId " + step.toolId())
                + " " + JSON.valueToTree(step.inputs()) + " (step " + step.stepId() + ")");
        StepResult result = steps.sendAndAwait(step);
        log.accept("<- step-results: " + result.status() + (result.outputs().isEmpty() ? "" : " " + result.outputs())
                + (result.error() == null ? "" : ": " + result.error()));
        return result;
    }

    private static boolean offered(StepResult result, String toolId) {
        return result.choices() != null && result.choices().stream().map(ToolChoice::id).anyMatch(toolId::equals);
    }

    static String replanRequest(PlanStep step, StepResult result) {
        ObjectNode report = JSON.createObjectNode().put("actionVerb", step.actionVerb()).put("status", result.status().name());
        report.set("inputs", JSON.valueToTree(step.inputs()));
        report.put("reason", result.error());
        report.set("choices", JSON.valueToTree(result.choices() == null ? List.of() : result.choices()));
        return "The step came back " + result.status() + ". Choose one of its candidate tools and give the step's inputs"
                + " by that tool's required parameter names, or give up.\n" + report;
    }

    static String resultsReport(List<Turn> turns) {
        ArrayNode results = JSON.createArrayNode();
        for (Turn turn : turns) {
            ObjectNode item = results.addObject().put("actionVerb", turn.step().actionVerb())
                    .put("status", turn.result().status().name());
            if (turn.step().toolId() != null) {
                item.put("toolId", turn.step().toolId());
            }
            if (!turn.result().outputs().isEmpty()) {
                item.set("outputs", JSON.valueToTree(turn.result().outputs()));
            }
            if (turn.result().error() != null) {
                item.put("error", turn.result().error());
            }
        }
        return "The steps ran; their results, in order:\n" + results
                + "\nAnswer the goal for the user in one or two sentences, from these results only.";
    }

    @Override
    public void close() {
        steps.close();
    }
}
