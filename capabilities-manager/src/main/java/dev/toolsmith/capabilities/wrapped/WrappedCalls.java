package dev.toolsmith.capabilities.wrapped;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.sandbox.AesGcmSecretCipher;
import dev.toolsmith.sandbox.ExecutionLimits;
import dev.toolsmith.sandbox.ExecutionOutcome;
import dev.toolsmith.sandbox.PolicySecretResolver;
import dev.toolsmith.sandbox.SecretResolver;
import dev.toolsmith.sandbox.WrappedToolExecutor;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The one way this service calls an external API: the shared sandboxed executor of {@code sandbox-http}
 * with the configured limits and the policy's secrets, decrypted only when a call needs them. Real calls
 * and health probes both come through here, so a probe meets the same hosts, limits and timeout as a
 * step. Blocking: call it from a worker thread.
 */
@ApplicationScoped
public class WrappedCalls {

    private static final Logger LOG = Logger.getLogger(WrappedCalls.class);

    private final WrappedToolExecutor executor;
    private final ExecutionLimits limits;
    private final AesGcmSecretCipher cipher;

    public WrappedCalls(SandboxSettings settings, SecretsSettings secrets, ContractCodec codec) {
        this.executor = new WrappedToolExecutor(codec.mapper());
        this.limits = new ExecutionLimits(settings.allowPrivateNetworks(), settings.maxRedirects(),
                (int) settings.connectTimeout().toMillis(), Set.of());
        this.cipher = secrets.key().filter(key -> !key.isBlank()).map(WrappedCalls::cipher).orElse(null);
        if (settings.allowPrivateNetworks()) {
            LOG.warn("wrapped tools may reach private network addresses (toolsmith.sandbox.allow-private-networks=true):"
                    + " for local development and tests only");
        }
    }

    private static AesGcmSecretCipher cipher(String key) {
        // A wrong key is a deployment mistake: fail at start-up, naming the setting, never echoing the value.
        try {
            return AesGcmSecretCipher.fromBase64Key(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("toolsmith.secrets.key: " + e.getMessage());
        }
    }

    /** One call of a wrapped tool with the step's inputs. */
    public ExecutionOutcome call(ToolManifest manifest, Map<String, JsonNode> inputs, UsagePolicy policy) {
        return executor.execute(manifest, inputs, secrets(policy), limits);
    }

    /**
     * The plugin's health probe: its safe operation and inputs, with the plugin's own call timeout and
     * response cap, any 2xx answer counts as healthy (the probe's response has no schema to meet).
     */
    public ExecutionOutcome probe(ToolManifest manifest, UsagePolicy policy) {
        HealthProbe probe = manifest.healthProbe();
        HttpBinding own = manifest.binding();
        HttpBinding binding = probe.binding();
        HttpBinding timed = new HttpBinding(binding.method(), binding.serverUrl(), binding.pathTemplate(),
                binding.parameters(), binding.bodyEncoding(), binding.auth(),
                own == null ? binding.timeoutMs() : own.timeoutMs(),
                own == null ? binding.maxResponseBytes() : own.maxResponseBytes());
        ToolManifest probeTool = new ToolManifest(manifest.id(), manifest.verb(), manifest.name() + " (health probe)",
                manifest.description(), manifest.source(), manifest.namespace(), manifest.domain(), manifest.tags(),
                null, null, manifest.risk(), timed, null, manifest.version(), manifest.contentHash());
        return executor.execute(probeTool, probe.inputs(), secrets(policy), limits);
    }

    private SecretResolver secrets(UsagePolicy policy) {
        if (policy == null || policy.secrets().isEmpty()) {
            return SecretResolver.none();
        }
        return new PolicySecretResolver(policy.secrets(), cipher);
    }
}
