package dev.toolsmith.engineer.jobs;

import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.eventing.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Records a build job for each approval on {@code tool-approved}. Applied once per event (idempotent
 * consumer) and once per tool version (the job table's key), so neither a redelivery nor a repeated
 * approval of the same version builds twice. The build itself runs in {@link BuildRunner}.
 */
@ApplicationScoped
public class ToolApprovedListener {

    private static final Logger LOG = Logger.getLogger(ToolApprovedListener.class);

    private final IdempotentConsumer consumer;
    private final BuildJobs jobs;

    public ToolApprovedListener(IdempotentConsumer consumer, BuildJobs jobs) {
        this.consumer = consumer;
        this.jobs = jobs;
    }

    @Incoming("tool-approved-in")
    public Uni<Void> onApproved(byte[] raw) {
        return consumer.apply("engineer-tool-approved", raw, ToolApproved.class, (envelope, approved) ->
                jobs.receive(approved).invoke(created -> {
                    if (created) {
                        LOG.infof("approval of %s v%d received; build queued", approved.toolId(), approved.version());
                    } else {
                        LOG.infof("approval of %s v%d already has a build; not built again", approved.toolId(),
                                approved.version());
                    }
                }).replaceWithVoid());
    }
}
