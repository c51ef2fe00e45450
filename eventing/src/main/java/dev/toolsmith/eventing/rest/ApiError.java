package dev.toolsmith.eventing.rest;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The body of every error response: the HTTP status, what went wrong in words, and for invalid input
 * the JSON Pointer of the first offending field.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiError(int status, String error, String pointer) {

    public static ApiError of(int status, String error) {
        return new ApiError(status, error, null);
    }
}
