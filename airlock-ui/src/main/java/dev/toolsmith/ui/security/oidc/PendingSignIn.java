package dev.toolsmith.ui.security.oidc;

import com.nimbusds.oauth2.sdk.id.State;
import com.nimbusds.oauth2.sdk.pkce.CodeVerifier;
import com.nimbusds.openid.connect.sdk.Nonce;
import java.util.Optional;

/**
 * A sign-in started at the provider and not yet finished: the state that ties the provider's answer to this
 * browser, the nonce the ID token must carry and the PKCE code verifier. All three are random and
 * URL-safe (base64url), so a space separates them.
 */
public record PendingSignIn(State state, Nonce nonce, CodeVerifier verifier) {

    public static PendingSignIn create() {
        return new PendingSignIn(new State(), new Nonce(), new CodeVerifier());
    }

    String encode() {
        return state.getValue() + " " + nonce.getValue() + " " + verifier.getValue();
    }

    static Optional<PendingSignIn> decode(String value) {
        String[] parts = value == null ? new String[0] : value.split(" ");
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PendingSignIn(new State(parts[0]), new Nonce(parts[1]), new CodeVerifier(parts[2])));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
