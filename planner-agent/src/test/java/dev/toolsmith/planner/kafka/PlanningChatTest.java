package dev.toolsmith.planner.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.toolsmith.contracts.step.PlanStep;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The conversation through the AI service against a scripted model: answers are read into the typed records whether
 * bare, in a ```json fence or between sentences; what cannot be read is refused naming the problem and quoting the
 * answer; the plan, the choice and the answer are one conversation, and a new goal starts an empty one.
 */
class PlanningChatTest {

    private static final String STEPS = """
            {"steps": [
              {"id": "rate", "actionVerb": "LOOK_UP_RATE", "description": "the EUR/USD rate", "inputs": {"pair": "EUR/USD"}},
              {"id": "total", "actionVerb": "MULTIPLY", "inputs": {"a": 100, "b": {"fromStep": "rate", "output": "rate"}}}
            ]}""";

    @Test
    void aPlanInAJsonFenceAfterASentenceIsRead() {
        PlanSteps plan = plan("Here is the plan:\n```json\n" + STEPS + "\n```");
        assertThat(plan.steps()).extracting(PlanStep::stepId).containsExactly("agent-1-rate", "agent-1-total");
        assertThat(plan.steps().get(1).inputs().get("a").valueType()).isEqualTo("number");
        assertThat(plan.steps().get(1).inputs().get("b").isReference()).isTrue();
    }

    @Test
    void aPlanBetweenSentencesIsRead() {
        PlanSteps plan = plan("Sure. " + STEPS + " Tell me if the rate should be another one.");
        assertThat(plan.steps()).extracting(PlanStep::actionVerb).containsExactly("LOOK_UP_RATE", "MULTIPLY");
    }

    @Test
    void anAnswerThatIsNotJsonIsRefusedQuotingIt() {
        assertThatThrownBy(() -> plan("I would convert it.")).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the model's plan cannot be used: it is not the JSON asked for (")
                .hasMessageEndingWith("it answered: I would convert it.");
        assertThatThrownBy(() -> plan("")).hasMessage("the model's plan cannot be used: it is empty; it answered: ");
    }

    @Test
    void anAnswerOfTheWrongShapeIsRefused() {
        // "steps" an object: no array of steps to read
        assertThatThrownBy(() -> plan("{\"steps\": {\"id\": \"s1\", \"actionVerb\": \"A\"}}"))
                .hasMessageStartingWith("the model's plan cannot be used: ").hasMessageContaining("{\"steps\": {");
        // a verb that is an object, a field the plan does not have
        for (String answer : List.of("{\"steps\": [{\"id\": \"s1\", \"actionVerb\": {\"verb\": \"A\"}}]}",
                "{\"plan\": [{\"id\": \"s1\", \"actionVerb\": \"A\"}]}", "[\"LOOK_UP_RATE\"]")) {
            assertThatThrownBy(() -> plan(answer)).as(answer).hasMessageStartingWith("the model's plan cannot be used: ")
                    .hasMessageEndingWith("it answered: " + answer);
        }
        // a number for the verb is read as its text, and refused as no name
        assertThatThrownBy(() -> plan("```json\n{\"steps\": [{\"id\": \"s1\", \"actionVerb\": 42}]}\n```"))
                .hasMessageContaining("step s1's actionVerb 42 is not a name");
        assertThatThrownBy(() -> choose("{\"toolId\": {\"id\": \"fx:convert\"}}"))
                .hasMessageStartingWith("the model's choice cannot be used: ").hasMessageContaining("fx:convert");
        assertThatThrownBy(() -> choose("{\"toolId\": [\"fx:convert\"], \"inputs\": 3}"))
                .hasMessageStartingWith("the model's choice cannot be used: ");
    }

    @Test
    void aChoiceInAFenceIsRead() {
        PlanSteps.Choice choice = choose("I choose:\n```json\n{\"toolId\": \"fx:convert\", \"inputs\": {\"amount\": 100}}\n```");
        assertThat(choice.toolId()).isEqualTo("fx:convert");
        assertThat(choice.inputs().get("amount").value().intValue()).isEqualTo(100);
        assertThat(choose("{\"giveUp\": \"no candidate converts money\"}").giveUp()).isEqualTo("no candidate converts money");
    }

    @Test
    void thePlanTheChoiceAndTheAnswerAreOneConversationAndEachGoalHasItsOwn() {
        ScriptedModel model = new ScriptedModel(STEPS, "{\"toolId\": \"fx:convert\"}", "92 EUR.", STEPS);
        PlanningChat chat = PlanningChat.start(model);
        chat.plan("How much are 100 USD in euros?", "agent-1", "planner");
        chat.choose("The step came back UNRESOLVED.");
        assertThat(chat.answer("The steps ran.")).isEqualTo("92 EUR.");

        List<ChatMessage> first = model.requests.get(0);
        assertThat(first).hasSize(2);
        assertThat(((SystemMessage) first.get(0)).text()).isEqualTo(PlanningChat.PLANNER);
        String question = ((UserMessage) first.get(1)).singleText();
        assertThat(question).startsWith("How much are 100 USD in euros?")
                .contains("You must answer strictly in the following JSON format").contains("\"actionVerb\"")
                .contains("\"fromStep\": \"<id of an earlier step>\"");
        List<ChatMessage> second = model.requests.get(1);
        assertThat(second).hasSize(4).startsWith(first.toArray(ChatMessage[]::new));
        assertThat(((AiMessage) second.get(2)).text()).isEqualTo(STEPS);
        assertThat(((UserMessage) second.get(3)).singleText()).startsWith("The step came back UNRESOLVED.")
                .contains("\"toolId\"").contains("\"giveUp\"");
        List<ChatMessage> third = model.requests.get(2);
        assertThat(third).hasSize(6);
        // the answer is free text: no format is asked for
        assertThat(((UserMessage) third.get(5)).singleText()).isEqualTo("The steps ran.");

        PlanningChat.start(model).plan("Another goal", "agent-2", "planner");
        assertThat(model.requests.get(3)).hasSize(2);
        assertThat(((UserMessage) model.requests.get(3).get(1)).singleText()).startsWith("Another goal");
    }

    @Test
    void anAnswerWithoutTextIsRefused() {
        PlanningChat chat = PlanningChat.start(new ScriptedModel(" "));
        assertThatThrownBy(() -> chat.answer("The steps ran.")).hasMessage("the model answered without text");
    }

    @Test
    void theLongestConversationFitsTheMemory() {
        int messages = 1 + 2 + 2 * KafkaPlannerAgent.MAX_REPLANS * PlanSteps.MAX_STEPS + 2;
        assertThat(PlanningChat.MAX_MESSAGES).isEqualTo(messages);
        ScriptedModel model = new ScriptedModel();
        model.answers.add(STEPS);
        for (int i = 0; i < KafkaPlannerAgent.MAX_REPLANS * PlanSteps.MAX_STEPS; i++) {
            model.answers.add("{\"giveUp\": \"nothing fits\"}");
        }
        model.answers.add("Nothing ran.");
        PlanningChat chat = PlanningChat.start(model);
        chat.plan("goal", "agent-1", "planner");
        for (int i = 0; i < KafkaPlannerAgent.MAX_REPLANS * PlanSteps.MAX_STEPS; i++) {
            chat.choose("choice " + i);
        }
        chat.answer("The steps ran.");
        List<ChatMessage> last = model.requests.get(model.requests.size() - 1);
        assertThat(last).hasSize(messages - 1);
        assertThat(last.get(0)).isInstanceOf(SystemMessage.class);
        assertThat(((UserMessage) last.get(1)).singleText()).startsWith("goal");
    }

    private static PlanSteps plan(String answer) {
        return PlanningChat.start(new ScriptedModel(answer)).plan("How much are 100 USD in euros?", "agent-1", "planner");
    }

    private static PlanSteps.Choice choose(String answer) {
        return PlanningChat.start(new ScriptedModel(answer)).choose("The step came back UNRESOLVED.");
    }

    /** Answers with the given texts in turn and keeps every request's messages. */
    static final class ScriptedModel implements ChatModel {
        final Deque<String> answers;
        final List<List<ChatMessage>> requests = new ArrayList<>();

        ScriptedModel(String... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(List.copyOf(request.messages()));
            return ChatResponse.builder().aiMessage(AiMessage.from(answers.removeFirst())).build();
        }
    }
}
