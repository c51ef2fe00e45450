package dev.toolsmith.planner.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.ToolChoice;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The Kafka-mode agent against a scripted model and a scripted capabilities manager: a DECOMPOSED step is served by
 * the plan it carries, sent in order as the agent's caller, and the next planned step reads the decomposition's last
 * step; a sub-step that fails stops the plan. An UNRESOLVED step is sent again naming the offered tool the model
 * chose (at most twice); a tool not offered is not sent; an answer the agent cannot read stops the goal with the reason.
 */
class KafkaPlannerAgentTest {

    private static final String PLAN = """
            {"steps": [
              {"id": "total", "actionVerb": "PRICE_IN_EUROS", "inputs": {"amount": 100, "currency": "USD"}},
              {"id": "say", "actionVerb": "RENDER_TEXT", "inputs": {"value": {"fromStep": "total", "output": "result"}}}
            ]}""";

    @Test
    void aDecomposedStepIsServedByItsPlanAndTheNextStepReadsItsLastStep() {
        ScriptedSteps toolsmith = new ScriptedSteps(step -> switch (step.actionVerb()) {
            case "PRICE_IN_EUROS" -> decomposed(step, List.of(
                    subStep(step, "rate", "LOOK_UP_RATE", Map.of("pair", literal("USD/EUR"))),
                    subStep(step, "multiply", "MULTIPLY", Map.of("a", literal("100"),
                            "b", StepInput.reference(step.stepId() + "-rate", "rate")))));
            case "LOOK_UP_RATE" -> succeeded(step, Map.of("rate", DoubleNode.valueOf(0.92)));
            case "MULTIPLY" -> succeeded(step, Map.of("result", DoubleNode.valueOf(92)));
            case "RENDER_TEXT" -> succeeded(step, Map.of("text", TextNode.valueOf("92 EUR")));
            default -> throw new AssertionError("unexpected step " + step.actionVerb());
        });
        ScriptedModel model = new ScriptedModel(PLAN, "100 USD are 92 EUR.");

        KafkaPlannerAgent.Outcome outcome;
        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(model, toolsmith, "planner", line -> { })) {
            outcome = agent.achieve("How much are 100 USD in euros?");
        }

        assertThat(toolsmith.sent).extracting(PlanStep::actionVerb)
                .containsExactly("PRICE_IN_EUROS", "LOOK_UP_RATE", "MULTIPLY", "RENDER_TEXT");
        assertThat(toolsmith.sent).extracting(PlanStep::caller).containsOnly("planner");
        String planId = toolsmith.sent.get(0).planId();
        assertThat(toolsmith.sent).extracting(PlanStep::planId).containsOnly(planId);
        PlanStep multiply = toolsmith.sent.get(2);
        assertThat(multiply.inputs().get("b").sourceStep()).isEqualTo(toolsmith.sent.get(0).stepId() + "-rate");
        PlanStep render = toolsmith.sent.get(3);
        assertThat(render.inputs().get("value").sourceStep()).isEqualTo(multiply.stepId());
        assertThat(outcome.turns()).hasSize(4);
        assertThat(outcome.answer()).isEqualTo("100 USD are 92 EUR.");
        // the last question to the model reports every step that ran, the decomposition's included
        assertThat(model.lastQuestion()).contains("LOOK_UP_RATE").contains("MULTIPLY").contains("RENDER_TEXT");
    }

    @Test
    void aSubStepThatFailsStopsThePlan() {
        ScriptedSteps toolsmith = new ScriptedSteps(step -> switch (step.actionVerb()) {
            case "PRICE_IN_EUROS" -> decomposed(step, List.of(
                    subStep(step, "rate", "LOOK_UP_RATE", Map.of("pair", literal("USD/EUR"))),
                    subStep(step, "multiply", "MULTIPLY", Map.of("a", literal("100")))));
            case "LOOK_UP_RATE" -> StepResult.failed(step, "the rate service is down");
            default -> throw new AssertionError("unexpected step " + step.actionVerb());
        });

        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(new ScriptedModel(PLAN, "It failed."), toolsmith, "planner",
                line -> { })) {
            agent.achieve("How much are 100 USD in euros?");
        }

        assertThat(toolsmith.sent).extracting(PlanStep::actionVerb).containsExactly("PRICE_IN_EUROS", "LOOK_UP_RATE");
    }

    @Test
    void aDecompositionWithoutStepsStopsThePlanThere() {
        ScriptedSteps toolsmith = new ScriptedSteps(step -> decomposed(step, List.of()));

        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(new ScriptedModel(PLAN, "Nothing ran."), toolsmith, "planner",
                line -> { })) {
            agent.achieve("How much are 100 USD in euros?");
        }

        assertThat(toolsmith.sent).extracting(PlanStep::actionVerb).containsExactly("PRICE_IN_EUROS");
    }

    @Test
    void aDecompositionNamingStepIdsNotItsOwnIsNotFollowed() {
        // one sub-step reuses the id of the plan's other step, another repeats an id: neither may be sent
        for (List<String> ids : List.of(List.of("-rate", "OTHER"), List.of("-rate", "-rate"))) {
            ScriptedSteps toolsmith = new ScriptedSteps(step -> step.actionVerb().equals("PRICE_IN_EUROS")
                    ? decomposed(step, ids.stream().map(id -> new PlanStep(id.equals("OTHER")
                            ? step.planId() + "-say" : step.stepId() + id, step.planId(), "LOOK_UP_RATE", null,
                            Map.of("pair", literal("USD/EUR")), null, "capabilities-manager", null)).toList())
                    : StepResult.failed(step, "unexpected"));

            try (KafkaPlannerAgent agent = new KafkaPlannerAgent(new ScriptedModel(PLAN, "Nothing ran."), toolsmith,
                    "planner", line -> { })) {
                agent.achieve("How much are 100 USD in euros?");
            }

            assertThat(toolsmith.sent).extracting(PlanStep::actionVerb).containsExactly("PRICE_IN_EUROS");
        }
    }

    private static final String ONE_STEP = """
            ```json
            {"steps": [{"id": "convert", "actionVerb": "CHANGE_MONEY", "inputs": {"request": "100 EUR in USD"}}]}
            ```""";

    @Test
    void anUnresolvedStepIsSentAgainNamingTheOfferedToolTheModelChose() {
        ScriptedSteps toolsmith = new ScriptedSteps(step -> step.toolId() == null ? unresolved(step)
                : new StepResult(step.stepId(), step.planId(), StepStatus.SUBSTITUTED, Map.of("result",
                        DoubleNode.valueOf(108)), null, null, null, null, null, Instant.now()));
        ScriptedModel model = new ScriptedModel(ONE_STEP,
                "{\"toolId\": \"fx:convert\", \"inputs\": {\"amount\": 100, \"from\": \"EUR\", \"to\": \"USD\"}}",
                "100 euros are 108 US dollars.");

        KafkaPlannerAgent.Outcome outcome;
        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(model, toolsmith, "planner", line -> { })) {
            outcome = agent.achieve("How many US dollars are 100 euros?");
        }

        assertThat(toolsmith.sent).extracting(PlanStep::toolId).containsExactly(null, "fx:convert");
        PlanStep followUp = toolsmith.sent.get(1);
        assertThat(followUp.actionVerb()).isEqualTo("CHANGE_MONEY");
        assertThat(followUp.planId()).isEqualTo(toolsmith.sent.get(0).planId());
        assertThat(followUp.inputs()).containsOnlyKeys("amount", "from", "to");
        assertThat(followUp.inputs().get("amount").valueType()).isEqualTo("number");
        assertThat(outcome.replans()).isEqualTo(1);
        assertThat(outcome.answer()).isEqualTo("100 euros are 108 US dollars.");
        // the model chose having seen the step's reason and candidates
        assertThat(model.questions.get(1)).contains("UNRESOLVED").contains("fx:convert").contains("no tool does CHANGE_MONEY");
        assertThat(model.lastQuestion()).contains("SUBSTITUTED").contains("108");
    }

    @Test
    void aToolTheResultDidNotOfferIsNotSentAndAGiveUpEndsTheStep() {
        for (String choice : List.of("{\"toolId\": \"other:tool\"}", "{\"giveUp\": \"nothing converts money\"}")) {
            ScriptedSteps toolsmith = new ScriptedSteps(KafkaPlannerAgentTest::unresolved);
            ScriptedModel model = new ScriptedModel(ONE_STEP, choice, "It cannot be done.");
            KafkaPlannerAgent.Outcome outcome;
            try (KafkaPlannerAgent agent = new KafkaPlannerAgent(model, toolsmith, "planner", line -> { })) {
                outcome = agent.achieve("How many US dollars are 100 euros?");
            }
            assertThat(toolsmith.sent).as(choice).hasSize(1);
            assertThat(outcome.replans()).isZero();
            assertThat(outcome.answer()).isEqualTo("It cannot be done.");
        }
    }

    @Test
    void aStepIsReplannedAtMostTwice() {
        ScriptedSteps toolsmith = new ScriptedSteps(KafkaPlannerAgentTest::unresolved);
        String choice = "{\"toolId\": \"fx:convert\"}";
        ScriptedModel model = new ScriptedModel(ONE_STEP, choice, choice, "It did not work.");
        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(model, toolsmith, "planner", line -> { })) {
            assertThat(agent.achieve("How many US dollars are 100 euros?").replans()).isEqualTo(KafkaPlannerAgent.MAX_REPLANS);
        }
        assertThat(toolsmith.sent).hasSize(1 + KafkaPlannerAgent.MAX_REPLANS);
        assertThat(model.answers).isEmpty();
    }

    @Test
    void anUnreadableAnswerStopsTheGoalNamingTheProblemAndSendsNothingMore() {
        ScriptedSteps planless = new ScriptedSteps(step -> { throw new AssertionError("no step may be sent"); });
        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(new ScriptedModel("I would change the money."), planless,
                "planner", line -> { })) {
            assertThatThrownBy(() -> agent.achieve("How many US dollars are 100 euros?"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("the model's plan cannot be used: it is not the JSON asked for")
                    .hasMessageEndingWith("it answered: I would change the money.");
        }
        ScriptedSteps toolsmith = new ScriptedSteps(KafkaPlannerAgentTest::unresolved);
        try (KafkaPlannerAgent agent = new KafkaPlannerAgent(new ScriptedModel(ONE_STEP, "{\"toolId\": [\"fx:convert\"]}"),
                toolsmith, "planner", line -> { })) {
            assertThatThrownBy(() -> agent.achieve("How many US dollars are 100 euros?"))
                    .hasMessageStartingWith("the model's choice cannot be used: ");
        }
        assertThat(toolsmith.sent).hasSize(1);
    }

    private static StepResult unresolved(PlanStep step) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.UNRESOLVED, null, null, null, null, null,
                "no tool does " + step.actionVerb(), Instant.now(), List.of(new ToolChoice("fx:convert", "CONVERT_AMOUNT",
                        "converts an amount between currencies", null, List.of("amount", "from", "to"), 0.71)));
    }

    private static StepInput literal(String value) {
        return StepInput.literal(TextNode.valueOf(value), "string");
    }

    /** A step of the capabilities manager's decomposition: its id prefixed with the decomposed step's, another caller. */
    private static PlanStep subStep(PlanStep decomposed, String id, String verb, Map<String, StepInput> inputs) {
        return new PlanStep(decomposed.stepId() + "-" + id, decomposed.planId(), verb, null, inputs, null,
                "capabilities-manager", null);
    }

    private static StepResult decomposed(PlanStep step, List<PlanStep> plan) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.DECOMPOSED, null, null, null, plan, null, null,
                Instant.now());
    }

    private static StepResult succeeded(PlanStep step, Map<String, JsonNode> outputs) {
        return new StepResult(step.stepId(), step.planId(), StepStatus.SUCCEEDED, outputs, null, null, null, null, null,
                Instant.now());
    }

    /** Answers every step with what {@code answer} says, and keeps the steps in the order they were sent. */
    private static final class ScriptedSteps implements KafkaPlannerAgent.StepSender {
        final List<PlanStep> sent = new ArrayList<>();
        private final Function<PlanStep, StepResult> answer;
        private final Map<String, Boolean> ids = new HashMap<>();

        ScriptedSteps(Function<PlanStep, StepResult> answer) {
            this.answer = answer;
        }

        @Override
        public StepResult sendAndAwait(PlanStep step) {
            assertThat(ids.put(step.stepId(), true)).as("step id %s sent twice", step.stepId()).isNull();
            sent.add(step);
            return answer.apply(step);
        }

        @Override
        public void close() {
        }
    }

    /** Answers with the given texts in turn and remembers the questions. */
    private static final class ScriptedModel implements ChatModel {
        private final Deque<String> answers;
        private final List<String> questions = new ArrayList<>();
        private String lastQuestion = "";

        ScriptedModel(String... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            List<ChatMessage> messages = request.messages();
            if (messages.get(messages.size() - 1) instanceof UserMessage question) {
                lastQuestion = question.singleText();
                questions.add(lastQuestion);
            }
            return ChatResponse.builder().aiMessage(AiMessage.from(answers.removeFirst())).build();
        }

        String lastQuestion() {
            return lastQuestion;
        }
    }
}
