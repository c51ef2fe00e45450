package dev.toolsmith.librarian.search;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Not ready until the index has been rebuilt from the catalog: a replica never answers from a partial index. */
@Readiness
@ApplicationScoped
public class SearchIndexReadiness implements HealthCheck {

    private final CatalogProjection projection;

    public SearchIndexReadiness(CatalogProjection projection) {
        this.projection = projection;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("Tool search index").status(projection.loaded())
                .withData("tools", projection.size()).build();
    }
}
