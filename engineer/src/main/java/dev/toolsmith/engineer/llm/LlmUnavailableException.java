package dev.toolsmith.engineer.llm;

/** The LLM was not called or did not answer (not configured, unreachable, timed out). */
public class LlmUnavailableException extends RuntimeException {

    public LlmUnavailableException(String message) {
        super(message);
    }
}
