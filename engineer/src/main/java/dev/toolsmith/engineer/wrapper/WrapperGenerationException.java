package dev.toolsmith.engineer.wrapper;

/** The approved tool cannot become a plugin; the message says what to change in the spec or the approval. */
public class WrapperGenerationException extends Exception {

    public WrapperGenerationException(String message) {
        super(message);
    }
}
