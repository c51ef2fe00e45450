package dev.toolsmith.librarian.airlock.warning;

/**
 * A warning the review screen shows about the text of a candidate tool, which planners' language models
 * read: {@code code} {@code HIDDEN_CHARACTERS} (invisible or direction-changing characters a reviewer does
 * not see but a model reads) or {@code LLM_INSTRUCTIONS} (wording aimed at the model that reads the tool's
 * description rather than at a person, such as "ignore previous instructions"). {@code field} is where
 * (a JSON pointer into the manifest), {@code excerpt} shows the spot with hidden characters spelled out
 * ({@code <U+200B>}), {@code message} says what it means.
 */
public record TextWarning(String code, String field, String excerpt, String message) {
}
