package dev.toolsmith.capabilities.wrapped;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** The key that opens the secrets of approved policies. */
@ConfigMapping(prefix = "toolsmith.secrets")
public interface SecretsSettings {

    /**
     * The platform's AES-256 key (32 bytes, base64) that decrypts a policy's {@code v1:} ciphertexts at call
     * time. Without it, tools that need a secret fail with a clear reason; the others run.
     */
    Optional<String> key();
}
