package dev.toolsmith.engineer.llm;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.toolsmith.engineer.config.LlmConfig;
import dev.toolsmith.eventing.logging.ErrorSummary;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The one door to the optional LLM. Blocking: call it from a worker thread and never inside a database
 * transaction. Its failures carry the first line of the client's message only (a client error can quote
 * whole response bodies), with anything that looks like a key or token blanked ({@link ErrorSummary}):
 * endpoints quote the presented key in their 401 answers, and these reasons end up in logs and build notes.
 */
@ApplicationScoped
public class LlmClient {

    private final LlmConfig config;
    private final ChatModel model;

    public LlmClient(LlmConfig config, ChatModel model) {
        this.config = config;
        this.model = model;
    }

    /** True when {@code toolsmith.llm.enabled} and a base URL are set; otherwise the model is never called. */
    public boolean available() {
        return config.configured();
    }

    /** The model's answer text; {@link LlmUnavailableException} when it cannot be reached or times out. */
    public String ask(String system, String user) {
        if (!available()) {
            throw new LlmUnavailableException("no LLM is configured");
        }
        try {
            String text = model.chat(SystemMessage.from(system), UserMessage.from(user)).aiMessage().text();
            return text == null ? "" : text;
        } catch (RuntimeException e) {
            throw new LlmUnavailableException("the LLM could not be reached: " + firstLine(e.getMessage()));
        }
    }

    static String firstLine(String message) {
        return ErrorSummary.firstLine(message);
    }
}
