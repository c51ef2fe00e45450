package dev.toolsmith.ui.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Settings of the airlock UI's backend (prefix {@code toolsmith.ui}). */
@ConfigMapping(prefix = "toolsmith.ui")
public interface UiConfig {

    /** Base URLs of the services whose APIs the UI forwards to. */
    Services services();

    /**
     * The API key the UI presents to the services ({@code X-API-Key}). The services must map its SHA-256
     * to the {@code service} role, which is what lets them trust the forwarded user headers.
     */
    String serviceApiKey();

    /**
     * Encrypts the session cookie (Quarkus' {@code quarkus.http.auth.session.encryption-key} reads it). Every
     * replica of the UI needs the same key, or sessions break when a request lands on another replica.
     */
    String sessionKey();

    /**
     * Sign-in users: {@code toolsmith.ui.users.<name>=<bcrypt-hash>:<admin|viewer>}. Empty in %prod unless the
     * operator configures them.
     */
    Map<String, String> users();

    /** Largest request body the UI forwards; bigger bodies are refused with 413. */
    @WithDefault("1048576")
    int maxRequestBytes();

    /** How long a forwarded call may take before the UI answers 504. */
    @WithDefault("PT30S")
    Duration upstreamTimeout();

    /** Single sign-on with an OpenID Connect provider, replacing the password sign-in when enabled. */
    Oidc oidc();

    /** Throttling and lockout of password sign-ins (docs/airlock-ui.md, "Sign-in throttling"). */
    SignIn signIn();

    /**
     * Per account (the user name as typed, case-insensitively) and per client address: after
     * {@code *-free-failures} failed sign-ins each further attempt waits {@code *-first-delay}, doubling per
     * failure up to {@code *-max-delay}; after {@code *-lockout-after} failures it is locked out for
     * {@code *-lockout}. Failures older than the lockout period are forgotten.
     */
    interface SignIn {
        @WithDefault("3")
        int accountFreeFailures();

        @WithDefault("PT1S")
        Duration accountFirstDelay();

        @WithDefault("PT1M")
        Duration accountMaxDelay();

        @WithDefault("10")
        int accountLockoutAfter();

        @WithDefault("PT15M")
        Duration accountLockout();

        /** Higher than an account's: people behind one NAT or proxy share an address. */
        @WithDefault("10")
        int addressFreeFailures();

        @WithDefault("PT1S")
        Duration addressFirstDelay();

        @WithDefault("PT1M")
        Duration addressMaxDelay();

        @WithDefault("50")
        int addressLockoutAfter();

        @WithDefault("PT15M")
        Duration addressLockout();
    }

    interface Services {
        @WithDefault("http://127.0.0.1:8081")
        URI librarian();

        @WithDefault("http://127.0.0.1:8082")
        URI capabilities();

        @WithDefault("http://127.0.0.1:8083")
        URI engineer();
    }

    /**
     * OpenID Connect sign-in (authorization code flow with PKCE, confidential client). Off by default; when on,
     * the password sign-in is refused and {@code toolsmith.ui.users} is not needed. Checked at start-up by
     * {@code OidcSettingsCheck}.
     */
    interface Oidc {
        @WithDefault("false")
        boolean enabled();

        /** The provider's issuer URL; its discovery document is {@code <issuer>/.well-known/openid-configuration}. */
        Optional<URI> issuer();

        Optional<String> clientId();

        /** The client secret (from the environment); never logged. */
        Optional<String> clientSecret();

        /** The callback URL registered at the provider: the UI's public URL + {@code /api/session/oidc/callback}. */
        Optional<URI> redirectUri();

        @WithDefault("openid profile email")
        String scopes();

        /** Claim holding the user's groups or roles, as a dotted path ({@code realm_access.roles}); a list or a string. */
        @WithDefault("groups")
        String rolesClaim();

        /** Values of the roles claim that make a user an admin. */
        Optional<List<String>> adminValues();

        /** Values of the roles claim that make a user a viewer. */
        Optional<List<String>> viewerValues();

        /** Claim naming the user in the audit log and the forwarded X-Toolsmith-User ({@code sub} if absent). */
        @WithDefault("preferred_username")
        String userClaim();

        /** Shown on the sign-in button: "Sign in with <provider-name>". */
        @WithDefault("single sign-on")
        String providerName();
    }
}
