package dev.toolsmith.capabilities.registry;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** Re-reads the registry and the learned aliases, so changes made by other replicas reach this one. */
@ApplicationScoped
public class RegistryRefresher {

    private final PluginRegistry registry;
    private final AliasBook aliases;

    public RegistryRefresher(PluginRegistry registry, AliasBook aliases) {
        this.registry = registry;
        this.aliases = aliases;
    }

    @Scheduled(every = "${toolsmith.steps.registry-refresh:30s}", delayed = "30s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> refresh() {
        return registry.refresh().chain(aliases::refresh);
    }
}
