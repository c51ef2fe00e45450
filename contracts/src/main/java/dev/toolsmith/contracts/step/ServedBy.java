package dev.toolsmith.contracts.step;

/** Which tool, at which version, produced a step's outputs. */
public record ServedBy(String toolId, String verb, int version) {
}
