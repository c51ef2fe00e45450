package dev.toolsmith.librarian.airlock.discovery;

import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.openapi.IngestionLimits;
import dev.toolsmith.openapi.OpenApiIngestor;
import dev.toolsmith.openapi.fetch.AddressPolicy;
import dev.toolsmith.openapi.fetch.FetchLimits;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;

/** The ingestion library, configured once for the airlock: limits and the address policy. */
@Singleton
public class AirlockComponents {

    @Produces
    @Singleton
    OpenApiIngestor ingestor(AirlockConfig config) {
        FetchLimits fetch = new FetchLimits(config.maxDocumentBytes(), config.fetchTimeout(),
                FetchLimits.DEFAULT_MAX_REDIRECTS);
        IngestionLimits limits = IngestionLimits.defaults().withFetch(fetch).withMaxOperations(config.maxOperations());
        AddressPolicy policy = new AddressPolicy(config.allowPrivateNetworks(), config.exemptAddresses().orElse(Set.of()));
        return new OpenApiIngestor(limits, policy);
    }
}
