package dev.toolsmith.contracts.tool;

/**
 * Content that canonical JSON (RFC 8785) cannot write, so it has no content hash: a lone UTF-16 surrogate in a string
 * or a field name, or a number beyond a double. The client's mistake: an {@link IllegalArgumentException}, which the
 * services answer with a 400, naming the field by its JSON Pointer.
 */
public class UnhashableContent extends IllegalArgumentException {

    private final String pointer;
    private final String problem;

    /** {@code pointer}: the JSON Pointer of the field within the hashed content; {@code problem}: what is wrong. */
    public UnhashableContent(String pointer, String problem) {
        super("field " + (pointer.isEmpty() ? "/" : pointer) + ": " + problem);
        this.pointer = pointer;
        this.problem = problem;
    }

    public String pointer() {
        return pointer;
    }

    /** The same problem, its field named from a document holding the hashed content at {@code pointer}. */
    public UnhashableContent within(String outer) {
        return new UnhashableContent(outer + pointer, problem);
    }
}
