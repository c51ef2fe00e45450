package dev.toolsmith.planner.kafka;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.contracts.llm.UnreadableAnswer;
import java.util.List;
import java.util.function.Supplier;

/**
 * One goal's conversation with the model, on a LangChain4j AI service with a chat memory of its own: the plan, the
 * choices after UNRESOLVED/PROPOSED steps and the final answer are turns of one conversation, so the model sees what it
 * planned when it chooses and what ran when it answers. The plan and the choices are structured output
 * ({@link ModelPlan}, {@link ModelChoice}: the library appends the JSON format to the question and reads the answer,
 * a ```json fence or a sentence around the JSON included); {@link PlanSteps} checks them. An answer the library cannot
 * read into the record is refused like a plan that breaks a rule: "the model's plan cannot be used: ...".
 */
final class PlanningChat {

    static final String PLANNER = """
            You plan for Toolsmith, a governed catalog of tools reached through plan steps.
            Break the user's goal into as few steps as possible. A step names an action verb in UPPER_SNAKE_CASE
            (an intent such as CONVERT_CURRENCY: Toolsmith finds a tool for a verb it does not know) and its inputs,
            each a literal JSON value or {"fromStep": "<id of an earlier step>", "output": "<its output name>"}.""";

    /**
     * Room for the longest conversation the agent holds, so nothing is evicted: the system message, the goal and the
     * plan, two messages per choice (at most {@link KafkaPlannerAgent#MAX_REPLANS} for each of up to
     * {@link PlanSteps#MAX_STEPS} steps), the results and the answer.
     */
    static final int MAX_MESSAGES = 1 + 2 + 2 * KafkaPlannerAgent.MAX_REPLANS * PlanSteps.MAX_STEPS + 2;

    /** The AI service: what the agent asks the model; the system message is {@link #PLANNER} for every turn. */
    interface Planner {
        ModelPlan plan(@UserMessage String goal);

        ModelChoice choose(@UserMessage String request);

        String answer(@UserMessage String results);
    }

    private final ChatMemory memory;
    private final Planner planner;

    private PlanningChat(ChatModel model) {
        this.memory = MessageWindowChatMemory.withMaxMessages(MAX_MESSAGES);
        this.planner = AiServices.builder(Planner.class).chatModel(model).chatMemory(memory).systemMessage(PLANNER)
                .build();
    }

    /** A new conversation: nothing of an earlier goal's is in it. */
    static PlanningChat start(ChatModel model) {
        return new PlanningChat(model);
    }

    /** Asks for a plan of {@code goal}; its steps belong to {@code planId} and run as {@code caller}. */
    PlanSteps plan(String goal, String planId, String caller) {
        ModelPlan plan = ask("plan", () -> planner.plan(goal));
        return PlanSteps.read(plan, lastAnswer(), planId, caller);
    }

    /** Asks the model to choose after a step came back UNRESOLVED or PROPOSED ({@code request} shows it the result). */
    PlanSteps.Choice choose(String request) {
        ModelChoice choice = ask("choice", () -> planner.choose(request));
        return PlanSteps.readChoice(choice, lastAnswer());
    }

    /** Asks for the answer to the goal from the {@code results} of the steps. */
    String answer(String results) {
        String answer = planner.answer(results);
        if (answer == null || answer.isBlank()) {
            throw new IllegalStateException("the model answered without text");
        }
        return answer;
    }

    private <T> T ask(String what, Supplier<T> question) {
        try {
            return question.get();
        } catch (OutputParsingException e) {
            // The library keeps the model's answer in the memory before it reads it: quote it in the refusal.
            String answered = lastAnswer();
            throw PlanSteps.unusable(what, answered.isBlank() ? "it is empty" : "it is not the JSON asked for ("
                    + UnreadableAnswer.reason(e) + ")", answered);
        }
    }

    private String lastAnswer() {
        List<ChatMessage> messages = memory.messages();
        return messages.isEmpty() || !(messages.get(messages.size() - 1) instanceof AiMessage answer)
                || answer.text() == null ? "" : answer.text();
    }
}
