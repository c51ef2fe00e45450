package dev.toolsmith.openapi;

/** An operation of an ingested document that could not become a tool, and why. */
public record SkippedOperation(String operationKey, String reason) {
}
