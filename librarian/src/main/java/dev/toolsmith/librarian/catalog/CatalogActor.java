package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.event.EventEnvelope;

/**
 * Who changed the catalog, for its audit entry: a person (an admin's action) or a service through an
 * event. {@code name} is the audit's actor; {@code through} says by what (an endpoint, or the topic and
 * event id), so an entry can be traced back to the request or record that caused it.
 */
public record CatalogActor(String name, String through) {

    /** An admin acting over REST. */
    public static CatalogActor person(String name, String endpoint) {
        return new CatalogActor(name, endpoint);
    }

    /** The service that sent {@code envelope} on {@code topic} (the envelope's source, without its slash). */
    public static CatalogActor event(String topic, EventEnvelope envelope) {
        String source = envelope.source() == null ? "" : envelope.source().replaceFirst("^/+", "").strip();
        return new CatalogActor(source.isEmpty() ? topic : source, topic + " event " + envelope.id());
    }

    /**
     * Whom an event names as the one who made the change ({@code plugin-status}' changedBy: "admin alice",
     * the health worker), reported by the service that sent it; the sender when the event names nobody.
     */
    public static CatalogActor changedBy(String changedBy, String topic, EventEnvelope envelope) {
        CatalogActor sender = event(topic, envelope);
        if (changedBy == null || changedBy.isBlank()) {
            return sender;
        }
        String sentBy = envelope.source() == null ? "" : envelope.source().replaceFirst("^/+", "").strip();
        return new CatalogActor(changedBy.strip(), sender.through() + (sentBy.isEmpty() ? "" : " from " + sentBy));
    }
}
