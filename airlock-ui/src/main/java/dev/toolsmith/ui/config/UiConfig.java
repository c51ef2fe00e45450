package dev.toolsmith.ui.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

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

    interface Services {
        @WithDefault("http://127.0.0.1:8081")
        URI librarian();

        @WithDefault("http://127.0.0.1:8082")
        URI capabilities();

        @WithDefault("http://127.0.0.1:8083")
        URI engineer();
    }
}
