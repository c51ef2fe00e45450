package dev.toolsmith.librarian;

import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.librarian.catalog.CatalogActor;
import dev.toolsmith.librarian.catalog.IndexOutcome;
import dev.toolsmith.librarian.catalog.ToolCatalog;
import dev.toolsmith.librarian.search.LocalIndexUpdates;
import io.quarkus.vertx.VertxContextSupport;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * Puts tools into the catalog for tests, through the code every catalog write takes (the one the
 * {@code plugin-built} listener calls: versioned, audited, published on {@code tool-catalog}) and then
 * into this replica's index at once. The service itself has no endpoint for this: tools enter only
 * through approval or as internal plugins.
 */
@ApplicationScoped
public class CatalogSeeder {

    /** The audit's actor of seeded changes. */
    public static final CatalogActor SEEDER = new CatalogActor("test-seeder", "a test's fixture");

    private final ToolCatalog catalog;
    private final LocalIndexUpdates index;

    public CatalogSeeder(ToolCatalog catalog, LocalIndexUpdates index) {
        this.catalog = catalog;
        this.index = index;
    }

    /** Catalogs {@code manifest} open to everyone (or keeping the access of a tool already there). */
    public IndexOutcome seed(ToolManifest manifest) {
        return seed(manifest, null);
    }

    /** Catalogs {@code manifest} with {@code allowedCallers} (null keeps the current list). */
    public IndexOutcome seed(ToolManifest manifest, List<String> allowedCallers) {
        try {
            return VertxContextSupport.subscribeAndAwait(() -> catalog.index(manifest, allowedCallers, SEEDER)
                    .call(outcome -> index.apply(outcome.change())));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("seeding " + manifest.id() + " failed", e);
        }
    }
}
