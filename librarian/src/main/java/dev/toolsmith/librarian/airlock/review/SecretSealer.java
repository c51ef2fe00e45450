package dev.toolsmith.librarian.airlock.review;

import dev.toolsmith.sandbox.AesGcmSecretCipher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Encrypts the secrets an admin hands over on approval (AES-256-GCM, the platform's
 * {@code v1:<base64(iv|ct)>} format, key {@code toolsmith.secrets.key}) so plaintext is never stored,
 * published or logged. Without a key, approvals that carry secrets are refused.
 */
@ApplicationScoped
public class SecretSealer {

    private final AesGcmSecretCipher cipher;

    public SecretSealer(SecretsConfig config) {
        this.cipher = config.key().filter(k -> !k.isBlank()).map(AesGcmSecretCipher::fromBase64Key).orElse(null);
    }

    /** The platform's secrets key. */
    @io.smallrye.config.ConfigMapping(prefix = "toolsmith.secrets")
    public interface SecretsConfig {
        /** Base64 of 32 bytes; without it approvals that carry secrets are refused. */
        Optional<String> key();
    }

    public Map<String, String> seal(Map<String, String> plaintext) {
        if (plaintext == null || plaintext.isEmpty()) {
            return Map.of();
        }
        if (cipher == null) {
            throw new WebApplicationException("secrets cannot be stored: toolsmith.secrets.key is not configured",
                    Response.Status.SERVICE_UNAVAILABLE);
        }
        Map<String, String> sealed = new LinkedHashMap<>();
        plaintext.forEach((name, value) -> {
            if (name == null || name.isBlank()) {
                throw new IllegalArgumentException("policy.secrets: a secret needs a name");
            }
            if (value == null || value.isEmpty()) {
                throw new IllegalArgumentException("policy.secrets." + name + ": the secret is empty");
            }
            sealed.put(name, cipher.encrypt(value));
        });
        return sealed;
    }
}
