package dev.toolsmith.engineer.llm;

/** The LLM answered, but the answer failed validation; the message says why, for the build's notes. */
public class RejectedAnswerException extends Exception {

    public RejectedAnswerException(String message) {
        super(message);
    }
}
