package dev.toolsmith.contracts.event;

/**
 * A message broke its contract. {@code pointer} is the JSON Pointer of the first offending field
 * (empty for the document itself); the message names the field and the rule it broke.
 */
public class ContractViolation extends RuntimeException {

    private final String pointer;

    public ContractViolation(String pointer, String message) {
        super(message);
        this.pointer = pointer;
    }

    public String pointer() {
        return pointer;
    }
}
