package dev.toolsmith.ui.security.oidc;

/**
 * A sign-in that cannot complete, with the HTTP status and a message fit for the user (it never holds a
 * token, a code or the client secret).
 */
public class OidcSignInException extends Exception {

    private final int status;

    public OidcSignInException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
