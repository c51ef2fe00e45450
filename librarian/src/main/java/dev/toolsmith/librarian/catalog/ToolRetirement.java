package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.event.Topics;
import dev.toolsmith.contracts.tool.ToolSourceType;
import dev.toolsmith.eventing.Outbox;
import dev.toolsmith.librarian.airlock.candidate.CandidateEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

/**
 * An admin takes a tool out of service for good: it leaves the catalog (tombstone, audited as
 * {@code RETIRED} with the admin and the reason), its active approval becomes {@code RETIRED}, and
 * {@code plugin-status} DISABLED tells the capabilities manager to stop running it, so catalog and
 * registry agree. All in one transaction. Internal plugins are not the catalog's to retire (the
 * capabilities manager announces them again at every start), and a tool whose approval is still being
 * built would come back with the build: both are refused with the reason.
 */
@ApplicationScoped
public class ToolRetirement {

    static final int MAX_REASON = 2000;

    private final ToolCatalog catalog;
    private final CatalogEntries entries;
    private final Outbox outbox;

    public ToolRetirement(ToolCatalog catalog, CatalogEntries entries, Outbox outbox) {
        this.catalog = catalog;
        this.entries = entries;
        this.outbox = outbox;
    }

    /** Retires {@code toolId}; the change to apply to this replica's search index. */
    public Uni<Optional<CatalogChange>> retire(String toolId, String reason, CatalogActor by) {
        String why = reason == null ? "" : reason.strip();
        if (why.isEmpty()) {
            throw new IllegalArgumentException("reason: retiring a tool needs a reason (query parameter reason)");
        }
        if (why.length() > MAX_REASON) {
            throw new IllegalArgumentException("reason: longer than " + MAX_REASON + " characters");
        }
        return Panache.withTransaction(() -> CatalogTool.<CatalogTool>findById(toolId).chain(tool -> {
            if (tool == null) {
                throw new NotFoundException("no tool " + toolId);
            }
            return CatalogToolVersion.<CatalogToolVersion>findById(
                    new CatalogToolVersion.Key(tool.id, tool.currentVersion));
        }).chain(version -> {
            if (version != null && entries.manifest(version.manifest).source() == ToolSourceType.INTERNAL) {
                throw new WebApplicationException(toolId + " is an internal plugin of the capabilities manager, which"
                        + " catalogues it again at every start; take it out of service there"
                        + " (POST /plugins/" + toolId + "/disable)", Response.Status.CONFLICT);
            }
            return CandidateEntity.<CandidateEntity>find("toolId = ?1 and status = 'APPROVED'", toolId)
                    .<CandidateEntity>firstResult();
        }).chain(building -> {
            if (building != null) {
                throw new WebApplicationException(toolId + " has an approval being built (pending tool " + building.id
                        + ", revision " + building.revision + "); the build would catalogue it again. Retire it once"
                        + " the build has finished", Response.Status.CONFLICT);
            }
            return catalog.delete(toolId, why, by);
        }).invoke(change -> {
            if (change.isEmpty()) { // retired by someone else meanwhile
                throw new NotFoundException("no tool " + toolId);
            }
        }).call(change -> CandidateEntity.update("status = 'RETIRED', updatedAt = ?1 where toolId = ?2"
                + " and status = 'ACTIVE'", OffsetDateTime.now(ZoneOffset.UTC), toolId))
                .call(change -> outbox.append(Topics.PLUGIN_STATUS, toolId, new PluginStatusChanged(toolId,
                        PluginStatus.RETIRED, "retired from the catalog by " + by.name() + ": " + why, by.name(),
                        Instant.now()))));
    }
}
