package dev.toolsmith.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.toolsmith.e2e.demo.RecordedLlm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recorded conversations answer in order, only when the conversation holds what the platform answered, and the
 * last answer quotes the converted amount from the conversation — the mechanism PlannerAgentIT and the demo rely on,
 * checked here without a platform through LangChain4j's OpenAI client.
 */
class RecordedLlmTest {

    @Test
    void turnsAnswerInOrderOnlyOnWhatTheConversationHoldsAndTheLastQuotesTheToolsResult() {
        try (RecordedLlm llm = RecordedLlm.start("kafka-convert", Map.of("TOOL_ID", "fx-test:convert_amount"))) {
            ChatModel model = OpenAiChatModel.builder().baseUrl(llm.baseUrl()).apiKey("none").modelName("recorded")
                    .maxRetries(0).build();
            List<ChatMessage> conversation = new ArrayList<>(List.of(SystemMessage.from("plan"),
                    UserMessage.from("How many US dollars are 100 euros?")));
            assertThat(model.chat(conversation).aiMessage().text()).contains("CHANGE_MONEY");

            List<ChatMessage> withoutTheCandidate = new ArrayList<>(conversation);
            withoutTheCandidate.add(UserMessage.from("The step came back UNRESOLVED; choices: []"));
            assertThatThrownBy(() -> model.chat(withoutTheCandidate)).as("no recorded answer without the tool id")
                    .isInstanceOf(RuntimeException.class);
            assertThat(llm.unanswered()).hasSize(1);

            conversation.add(UserMessage.from("The step came back UNRESOLVED; {\"choices\":[{\"id\":\"fx-test:convert_amount\"}]}"));
            assertThat(model.chat(conversation).aiMessage().text()).contains("\"toolId\": \"fx-test:convert_amount\"");

            conversation.add(UserMessage.from("[{\"status\":\"SUBSTITUTED\",\"outputs\":{\"from\":\"EUR\",\"to\":\"USD\","
                    + "\"amount\":100,\"rate\":1.08,\"result\":108.00}}]"));
            assertThat(model.chat(conversation).aiMessage().text()).startsWith("100 euros are 108.00 US dollars");
            assertThat(llm.answered()).isEqualTo(llm.turns());
        }
    }
}
