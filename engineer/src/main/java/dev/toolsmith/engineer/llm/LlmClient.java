package dev.toolsmith.engineer.llm;

import dev.langchain4j.service.output.OutputParsingException;
import dev.toolsmith.contracts.llm.UnreadableAnswer;
import dev.toolsmith.engineer.config.LlmConfig;
import dev.toolsmith.eventing.logging.ErrorSummary;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Supplier;

/**
 * The one door to the optional LLM: every AI-service call goes through {@link #ask}. Blocking: call it from a
 * worker thread and never inside a database transaction. An answer the library cannot read into the asked
 * record is a {@link RejectedAnswerException} naming the problem ({@link UnreadableAnswer}); any other failure
 * is an {@link LlmUnavailableException} carrying the first line of the client's message only (a client error
 * can quote whole response bodies), with anything that looks like a key or token blanked
 * ({@link ErrorSummary}): endpoints quote the presented key in their 401 answers, and these reasons end up in
 * logs and build notes.
 */
@ApplicationScoped
public class LlmClient {

    private final LlmConfig config;

    public LlmClient(LlmConfig config) {
        this.config = config;
    }

    /** True when {@code toolsmith.llm.enabled} and a base URL are set; otherwise no AI service is ever called. */
    public boolean available() {
        return config.configured();
    }

    /**
     * The typed answer of {@code call}, an AI-service method; not yet checked against Toolsmith's rules (the
     * caller's validator does that).
     */
    public <T> T ask(Supplier<T> call) throws RejectedAnswerException {
        if (!available()) {
            throw new LlmUnavailableException("no LLM is configured");
        }
        T answer;
        try {
            answer = call.get();
        } catch (RuntimeException e) {
            var unreadable = UnreadableAnswer.cause(e, OutputParsingException.class);
            if (unreadable.isPresent()) {
                throw new RejectedAnswerException(UnreadableAnswer.reason(unreadable.get()));
            }
            throw new LlmUnavailableException("the LLM could not be reached: " + firstLine(e.getMessage()));
        }
        if (answer == null) {
            throw new RejectedAnswerException("the answer is not a JSON object");
        }
        return answer;
    }

    static String firstLine(String message) {
        return ErrorSummary.firstLine(message);
    }
}
