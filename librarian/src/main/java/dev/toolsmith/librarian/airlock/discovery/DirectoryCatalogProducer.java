package dev.toolsmith.librarian.airlock.discovery;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** One directory catalog per replica. */
@Singleton
public class DirectoryCatalogProducer {

    @Produces
    @Singleton
    DirectoryCatalog directoryCatalog() {
        return new DirectoryCatalog();
    }
}
