package dev.toolsmith.eventing;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Remembers which event ids each consumer has applied. Called inside the transaction that applies the
 * event, so "applied" and "remembered" commit together: a redelivery finds the id and does nothing.
 */
@ApplicationScoped
public class ProcessedEvents {

    /** True on the first delivery of {@code eventId} to {@code consumer}, false on every later one. */
    public Uni<Boolean> firstDelivery(String eventId, String consumer) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "INSERT INTO processed_event (event_id, consumer) VALUES (:id, :consumer) ON CONFLICT DO NOTHING")
                .setParameter("id", eventId)
                .setParameter("consumer", consumer)
                .executeUpdate())
                .map(inserted -> inserted == 1);
    }
}
