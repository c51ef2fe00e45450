package dev.toolsmith.contracts.tool;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How a wrapped tool authenticates. The secret itself is never here: {@code secretName} names the
 * secret of the approval's policy that fills it at call time.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AuthBinding(Scheme scheme, String parameterName, String secretName) {

    public enum Scheme {
        NONE,
        API_KEY_HEADER,
        API_KEY_QUERY,
        API_KEY_COOKIE,
        BEARER,
        BASIC
    }

    public static AuthBinding none() {
        return new AuthBinding(Scheme.NONE, null, null);
    }
}
