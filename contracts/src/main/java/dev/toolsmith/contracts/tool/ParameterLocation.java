package dev.toolsmith.contracts.tool;

/** Where an input of a wrapped HTTP tool travels in the request. */
public enum ParameterLocation {
    PATH,
    QUERY,
    HEADER,
    COOKIE,
    /** A property of the JSON or form body. */
    BODY,
    /** The whole request body (a non-object body schema). */
    BODY_WHOLE
}
