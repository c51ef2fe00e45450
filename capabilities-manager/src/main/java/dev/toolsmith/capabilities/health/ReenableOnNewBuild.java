package dev.toolsmith.capabilities.health;

import dev.toolsmith.capabilities.registry.NewVerifiedBuild;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/** A newly approved and verified build lifts a disable by the health worker ({@link PluginStatusChanges#enableForNewBuild}). */
@ApplicationScoped
public class ReenableOnNewBuild implements NewVerifiedBuild {

    private static final Logger LOG = Logger.getLogger(ReenableOnNewBuild.class);

    private final PluginStatusChanges statusChanges;

    public ReenableOnNewBuild(PluginStatusChanges statusChanges) {
        this.statusChanges = statusChanges;
    }

    @Override
    public Uni<Void> registered(String toolId, int version) {
        return statusChanges.enableForNewBuild(toolId, version).invoke(enabled -> {
            if (enabled) {
                LOG.infof("plugin-built: %s v%d re-enabled by its new verified build", toolId, version);
            }
        }).replaceWithVoid();
    }
}
