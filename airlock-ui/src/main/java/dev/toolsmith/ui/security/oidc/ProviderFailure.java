package dev.toolsmith.ui.security.oidc;

/**
 * The provider's token endpoint failed (HTTP 5xx) rather than refusing the code: raised by
 * {@link TokenEndpointFailures} so that {@link OidcSignInFailures} answers 502, as when the provider is unreachable.
 */
class ProviderFailure extends RuntimeException {

    ProviderFailure(int status) {
        super("the identity provider's token endpoint answered HTTP " + status);
    }
}
