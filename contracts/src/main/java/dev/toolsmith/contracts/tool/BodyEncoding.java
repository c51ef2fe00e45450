package dev.toolsmith.contracts.tool;

/** How the request body of a wrapped tool is encoded. */
public enum BodyEncoding {
    NONE,
    JSON,
    FORM
}
