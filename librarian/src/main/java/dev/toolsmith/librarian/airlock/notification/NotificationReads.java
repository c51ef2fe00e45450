package dev.toolsmith.librarian.airlock.notification;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;

/**
 * The notification inbox as one reader sees it. Read state is kept per reader (table
 * {@code airlock_notification_read}), so a viewer who marks something read never hides it from the admins
 * who must act on it; reads recorded before per-reader state existed count for everyone (reader {@code *}).
 * Runs in the caller's session.
 */
@ApplicationScoped
public class NotificationReads {

    /** One notification and when this reader read it (null: unread). */
    public record Row(UUID id, String kind, String severity, String title, String message, String subjectId,
            OffsetDateTime createdAt, OffsetDateTime readAt) {
    }

    private static final String READ_BY = "SELECT 1 FROM airlock_notification_read r WHERE r.notification_id = n.id "
            + "AND r.reader IN (:reader, '*')";

    public Uni<List<Row>> page(String reader, boolean unreadOnly, int page, int size) {
        String sql = "SELECT n.id, n.kind, n.severity, n.title, n.message, n.subject_id, n.created_at, "
                + "(SELECT min(r.read_at) FROM airlock_notification_read r WHERE r.notification_id = n.id "
                + "AND r.reader IN (:reader, '*')) AS read_at FROM airlock_notification n "
                + (unreadOnly ? "WHERE NOT EXISTS (" + READ_BY + ") " : "")
                + "ORDER BY n.created_at DESC, n.id LIMIT :size OFFSET :offset";
        return Panache.getSession().chain(session -> session.createNativeQuery(sql, Object[].class)
                .setParameter("reader", reader)
                .setParameter("size", size)
                .setParameter("offset", (long) page * size) // long: a huge page number is an empty page, not an overflow
                .getResultList())
                .map(rows -> rows.stream().map(NotificationReads::row).toList());
    }

    public Uni<Long> count(String reader, boolean unreadOnly) {
        String sql = "SELECT count(*) FROM airlock_notification n"
                + (unreadOnly ? " WHERE NOT EXISTS (" + READ_BY + ")" : "");
        return Panache.getSession().chain(session -> {
            var query = session.createNativeQuery(sql, Object.class);
            if (unreadOnly) {
                query.setParameter("reader", reader);
            }
            return query.getSingleResult();
        }).map(n -> ((Number) n).longValue());
    }

    /** Marks one read for this reader; false when there is no such notification. */
    public Uni<Boolean> markRead(String reader, UUID id) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT count(*) FROM airlock_notification WHERE id = :id", Object.class)
                .setParameter("id", id)
                .getSingleResult()
                .chain(found -> ((Number) found).longValue() == 0 ? Uni.createFrom().item(false)
                        : session.createNativeQuery("INSERT INTO airlock_notification_read (notification_id, reader, read_at) "
                                + "VALUES (:id, :reader, now()) ON CONFLICT DO NOTHING")
                                .setParameter("id", id)
                                .setParameter("reader", reader)
                                .executeUpdate()
                                .replaceWith(true)));
    }

    /** Marks everything this reader has not read yet; how many that were. */
    public Uni<Integer> markAllRead(String reader) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "INSERT INTO airlock_notification_read (notification_id, reader, read_at) "
                        + "SELECT n.id, :reader, now() FROM airlock_notification n WHERE NOT EXISTS (" + READ_BY + ") "
                        + "ON CONFLICT DO NOTHING")
                .setParameter("reader", reader)
                .executeUpdate());
    }

    private static Row row(Object[] r) {
        return new Row(uuid(r[0]), (String) r[1], (String) r[2], (String) r[3], (String) r[4], (String) r[5], time(r[6]),
                time(r[7]));
    }

    private static UUID uuid(Object value) {
        return value instanceof UUID id ? id : UUID.fromString(value.toString());
    }

    /** The driver may hand a timestamptz back as any of these, depending on the query's type inference. */
    private static OffsetDateTime time(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof OffsetDateTime t) {
            return t;
        }
        if (value instanceof Instant t) {
            return t.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof LocalDateTime t) {
            return t.atOffset(ZoneOffset.UTC);
        }
        if (value instanceof java.util.Date t) {
            return t.toInstant().atOffset(ZoneOffset.UTC);
        }
        return OffsetDateTime.parse(value.toString());
    }
}
