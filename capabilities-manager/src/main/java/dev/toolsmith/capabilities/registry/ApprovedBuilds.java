package dev.toolsmith.capabilities.registry;

import dev.toolsmith.contracts.build.ApprovalVerifier;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.eventing.Outbox;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The registry's gate on {@code plugin-built}: a wrapped plugin is registered only when its build carries
 * the librarian's valid seal of the approval it was built from, for this tool, version, call, probe and
 * policy ({@link ApprovalVerifier}). This holds even when the broker lets an unexpected client write the
 * topic. A refused build raises a critical admin notification; the listener then sends the event to
 * {@code plugin-built.dlq} with the reason. The public key is read at start, so a missing one stops the
 * service with the setting's name.
 */
@Startup
@Singleton
public class ApprovedBuilds {

    static final String VERIFY_KEY = "toolsmith.approvals.verify-key";

    private final ApprovalVerifier verifier;
    private final ContractCodec codec;
    private final Outbox outbox;

    public ApprovedBuilds(@ConfigProperty(name = VERIFY_KEY, defaultValue = " ") String verifyKey, ContractCodec codec,
            Outbox outbox) {
        this.verifier = ApprovalVerifier.fromBase64(verifyKey, VERIFY_KEY + " (TOOLSMITH_APPROVALS_VERIFY_KEY)");
        this.codec = codec;
        this.outbox = outbox;
    }

    /** Why {@code built} must not be registered; empty when it is the build of an approval. */
    public Optional<String> refusal(PluginBuilt built) {
        return verifier.refusal(built, codec.mapper());
    }

    /** Tells the admins, in the caller's transaction, that a build of {@code toolId} was refused and why. */
    public Uni<Void> notifyRefused(PluginBuilt built, String eventId, String eventSource, String reason) {
        Notification alert = new Notification(UUID.randomUUID().toString(), Notification.Kind.PLUGIN_REFUSED,
                Notification.Severity.CRITICAL, "Refused a build of " + built.toolId() + " that no approval covers",
                "A plugin-built event (id " + eventId + ", source " + eventSource + ") for " + built.toolId() + " v"
                        + built.version() + " was not registered: it " + reason + ". It is in plugin-built.dlq;"
                        + " check who can write plugin-built.", built.toolId(), Instant.now());
        return outbox.append(Topics.NOTIFICATIONS, alert.id(), alert).replaceWithVoid();
    }
}
