package dev.toolsmith.sandbox;

/**
 * Gives the plaintext of a named secret at call time. Implementations decrypt on demand and keep no
 * plaintext around; the executor holds the value only while it builds the request.
 */
@FunctionalInterface
public interface SecretResolver {

    /** The plaintext of {@code secretName}; throws {@link SecretUnavailableException} when it cannot. */
    String resolve(String secretName) throws SecretUnavailableException;

    /** For tools whose binding needs no secret: every lookup fails with a clear reason. */
    static SecretResolver none() {
        return name -> {
            throw new SecretUnavailableException("no secret named '" + name + "' is configured for this tool");
        };
    }
}
