package dev.toolsmith.librarian.airlock.source;

import dev.toolsmith.librarian.airlock.AirlockConfig;
import dev.toolsmith.librarian.airlock.SearchText;
import dev.toolsmith.librarian.airlock.audit.AuditLog;
import dev.toolsmith.librarian.airlock.discovery.DirectoryCatalog;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.NotFoundException;
import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/** Registers, edits and removes tool sources; every change is audited in its own transaction. */
@ApplicationScoped
public class SourceService {

    static final int MIN_INTERVAL_SECONDS = 60;

    private final AirlockConfig config;
    private final AuditLog audit;
    private final DirectoryCatalog directory;

    public SourceService(AirlockConfig config, AuditLog audit, DirectoryCatalog directory) {
        this.config = config;
        this.audit = audit;
        this.directory = directory;
    }

    public Uni<SourceView> create(SourceRequest request, String actor) {
        SourceEntity source = new SourceEntity();
        source.id = UUID.randomUUID();
        apply(source, request);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        source.status = "NEW";
        // scanned by the next tick; a directory only on demand
        source.nextScanAt = "directory".equals(source.type) ? null : now;
        source.createdBy = actor;
        source.createdAt = now;
        source.updatedAt = now;
        SourceView view = SourceView.of(source);
        return Panache.withTransaction(() -> source.persist()
                .chain(() -> audit.record(actor, AuditLog.Action.SOURCE_CREATED, "source", source.id.toString(),
                        "Source " + source.name + " (" + source.type + ") registered", null, view.auditState())))
                .replaceWith(view);
    }

    /** The statuses a source can be in, for {@code GET /tools/sources?status=}. */
    static final List<String> STATUSES = List.of("NEW", "SCANNING", "OK", "FAILED");

    /** The keys {@code GET /tools/sources?sort=} offers and what each sorts by. */
    static final java.util.Map<String, String> SORTS = sorts();

    private static java.util.Map<String, String> sorts() {
        java.util.Map<String, String> sorts = new java.util.LinkedHashMap<>();
        sorts.put("name", "lower(name)");
        sorts.put("type", "type");
        sorts.put("status", "status");
        sorts.put("lastscan", "lastScanAt");
        sorts.put("found", "foundCount");
        sorts.put("new", "newCount");
        sorts.put("changed", "changedCount");
        sorts.put("created", "createdAt");
        return java.util.Collections.unmodifiableMap(sorts);
    }

    /** Filters of {@code GET /tools/sources}: a LIKE pattern for name and URL, a status, a type; null means any. */
    public record Filter(String text, String status, String type) {
    }

    public record SourcePage(List<SourceView> items, int page, int size, long total) {
    }

    public Uni<SourcePage> list(Filter filter, String orderBy, int page, int size) {
        StringBuilder where = new StringBuilder("1 = 1");
        io.quarkus.panache.common.Parameters params = new io.quarkus.panache.common.Parameters();
        if (filter.text() != null) {
            where.append(" and (").append(SearchText.contains("name", "q")).append(" or ")
                    .append(SearchText.contains("url", "q")).append(")");
            params.and("q", filter.text());
        }
        if (filter.status() != null) {
            where.append(" and status = :status");
            params.and("status", filter.status());
        }
        if (filter.type() != null) {
            where.append(" and type = :type");
            params.and("type", filter.type());
        }
        String clause = where.toString();
        return Panache.withSession(() -> SourceEntity.<SourceEntity>find(clause + orderBy, params)
                .page(io.quarkus.panache.common.Page.of(page, size)).list()
                .chain(rows -> SourceEntity.count(clause, params).map(total ->
                        new SourcePage(rows.stream().map(SourceView::of).toList(), page, size, total))));
    }

    public Uni<List<SourceView>> list() {
        return Panache.withSession(() -> SourceEntity.<SourceEntity>list("order by name, id"))
                .map(all -> all.stream().map(SourceView::of).toList());
    }

    public Uni<SourceView> get(UUID id) {
        return Panache.withSession(() -> SourceEntity.<SourceEntity>findById(id)).map(s -> {
            if (s == null) {
                throw new NotFoundException("no tool source " + id);
            }
            return SourceView.of(s);
        });
    }

    public Uni<SourceView> update(UUID id, SourceRequest request, String actor) {
        return Panache.withTransaction(() -> SourceEntity.<SourceEntity>findById(id).chain(source -> {
            if (source == null) {
                throw new NotFoundException("no tool source " + id);
            }
            var before = SourceView.of(source).auditState();
            String previousUrl = source.url;
            apply(source, request);
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            source.updatedAt = now;
            if (!previousUrl.equals(source.url) && !"directory".equals(source.type)) {
                source.nextScanAt = now; // a new location is worth a look at once
            }
            SourceView after = SourceView.of(source);
            return audit.record(actor, AuditLog.Action.SOURCE_UPDATED, "source", id.toString(),
                    "Source " + source.name + " changed", before, after.auditState()).replaceWith(after);
        }));
    }

    /**
     * Removes a source; the database's ON DELETE CASCADE takes its candidates (and their gap matches) with it.
     * The row goes by a bulk delete statement, not by removing the loaded entity: Hibernate Reactive's
     * entity removal under concurrent requests continued the session on another event loop (HR000069,
     * quarkusio/quarkus#41945), failing one delete and leaving the others' transactions open until the
     * caller gave up and the connection was closed (HR000090), which rolled them back. A delete that waits
     * for locks held by other work gives up after {@link SourceDeleteContention#LOCK_TIMEOUT} and says so.
     */
    public Uni<Void> delete(UUID id, String actor) {
        return Panache.withTransaction(() -> limitLockWait().chain(() -> SourceEntity.<SourceEntity>findById(id))
                .chain(source -> {
                    if (source == null) {
                        throw new NotFoundException("no tool source " + id);
                    }
                    var before = SourceView.of(source).auditState();
                    String name = source.name;
                    return SourceEntity.delete("id", id)
                            .chain(() -> audit.record(actor, AuditLog.Action.SOURCE_DELETED, "source", id.toString(),
                                    "Source " + name + " removed with its candidates", before, null));
                }))
                .onFailure().transform(failure -> SourceDeleteContention.of(failure, id.toString())
                        .<Throwable>map(answer -> answer).orElse(failure))
                .invoke(() -> directory.forget(id));
    }

    /** Bounds this transaction's waits for row locks (SET LOCAL: it ends with the transaction). */
    private static Uni<Void> limitLockWait() {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                        "select set_config('lock_timeout', :timeout, true)")
                .setParameter("timeout", SourceDeleteContention.LOCK_TIMEOUT.toMillis() + "ms")
                .getSingleResult()).replaceWithVoid();
    }

    private void apply(SourceEntity source, SourceRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("a source needs a JSON body: {name, type, url, ...}");
        }
        String name = required(request.name(), "name");
        if (name.length() > 200) {
            throw new IllegalArgumentException("name: longer than 200 characters");
        }
        String type = new SourceTypes(config.directoryEnabled()).accept(required(request.type(), "type"));
        String url = required(request.url(), "url").trim();
        checkUrl(url, type);
        int interval = request.intervalSeconds() == null ? (int) config.defaultInterval().toSeconds()
                : request.intervalSeconds();
        if (interval < MIN_INTERVAL_SECONDS) {
            throw new IllegalArgumentException("intervalSeconds: " + interval + " is below the minimum of "
                    + MIN_INTERVAL_SECONDS);
        }
        source.name = name.trim();
        source.type = type;
        source.url = url;
        source.branch = type.equals("git") ? blankToNull(request.branch()) : null;
        source.path = type.equals("git") ? blankToNull(request.path()) : null;
        if (source.path != null && (source.path.contains("..") || source.path.length() > 500)) {
            throw new IllegalArgumentException("path: must stay inside the repository (no '..', at most 500 characters)");
        }
        source.intervalSeconds = interval;
        source.suspendOnChange = Boolean.TRUE.equals(request.suspendOnChange());
    }

    private void checkUrl(String url, String type) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (Exception e) {
            throw new IllegalArgumentException("url: '" + url + "' is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        boolean http = scheme.equals("http") || scheme.equals("https");
        boolean localGit = type.equals("git") && scheme.equals("file");
        if (!http && !localGit) {
            throw new IllegalArgumentException("url: '" + url + "' must be an absolute http(s) URL"
                    + (type.equals("git") ? " (or file: for a local repository in development)" : ""));
        }
        if (http && (uri.getHost() == null || uri.getHost().isBlank())) {
            throw new IllegalArgumentException("url: '" + url + "' has no host");
        }
        if (url.length() > 2000) {
            throw new IllegalArgumentException("url: longer than 2000 characters");
        }
    }

    private static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(field + ": is required");
        }
        return value;
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
