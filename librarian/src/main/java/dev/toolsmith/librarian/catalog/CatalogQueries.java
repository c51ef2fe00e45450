package dev.toolsmith.librarian.catalog;

import dev.toolsmith.contracts.tool.ToolManifest;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The catalog's read side for people and the UI (search never reads the database). */
@ApplicationScoped
public class CatalogQueries {

    private final CatalogEntries entries;

    public CatalogQueries(CatalogEntries entries) {
        this.entries = entries;
    }

    public Uni<Optional<ToolDetails>> get(String toolId) {
        return Panache.withSession(() -> CatalogTool.<CatalogTool>findById(toolId).chain(tool -> {
            if (tool == null) {
                return Uni.createFrom().item(Optional.<ToolDetails>empty());
            }
            return CatalogToolVersion.<CatalogToolVersion>list("toolId", Sort.by("version"), toolId).map(versions -> {
                CatalogToolVersion current = versions.stream().filter(v -> v.version == tool.currentVersion)
                        .findFirst().orElseThrow();
                List<ToolDetails.VersionSummary> history = versions.stream()
                        .map(v -> new ToolDetails.VersionSummary(v.version, v.contentHash, v.createdAt)).toList();
                return Optional.of(new ToolDetails(tool.id, tool.currentVersion, tool.status,
                        List.of(tool.allowedCallers), entries.manifest(current.manifest), history, tool.createdAt,
                        tool.updatedAt));
            });
        }));
    }

    public Uni<CatalogPage> list(CatalogFilter filter, int page, int size) {
        List<String> where = new ArrayList<>();
        Parameters params = new Parameters();
        filter.namespace().ifPresent(ns -> {
            where.add("lower(namespace) = :namespace");
            params.and("namespace", ns.toLowerCase(java.util.Locale.ROOT));
        });
        filter.domain().ifPresent(d -> {
            where.add("lower(domain) = :domain");
            params.and("domain", d.toLowerCase(java.util.Locale.ROOT));
        });
        filter.status().ifPresent(s -> {
            where.add("status = :status");
            params.and("status", s.wire());
        });
        filter.visibleTo().ifPresent(caller -> {
            // cardinality, not array_length: PostgreSQL's array_length of an empty array is NULL. "> 0", not
            // "is not null": Hibernate's own array_position answers 0 for an element that is not there.
            where.add("(function('cardinality', allowedCallers) = 0 "
                    + "or function('array_position', allowedCallers, :caller) > 0)");
            params.and("caller", caller);
        });
        String query = where.isEmpty() ? "" : String.join(" and ", where);
        Map<String, Object> values = params.map();
        return Panache.withSession(() -> {
            var found = where.isEmpty() ? CatalogTool.<CatalogTool>findAll(Sort.by("id"))
                    : CatalogTool.<CatalogTool>find(query, Sort.by("id"), values);
            return found.page(page, size).list().chain(tools -> found.count().chain(total -> summaries(tools)
                    .map(items -> new CatalogPage(items, page, size, total))));
        });
    }

    private Uni<List<ToolSummary>> summaries(List<CatalogTool> tools) {
        if (tools.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<String> ids = tools.stream().map(t -> t.id).toList();
        return CatalogToolVersion.<CatalogToolVersion>list(
                "select v from CatalogToolVersion v, CatalogTool t where v.toolId = t.id "
                        + "and v.version = t.currentVersion and t.id in ?1", ids)
                .map(versions -> {
                    Map<String, CatalogToolVersion> byTool = versions.stream()
                            .collect(Collectors.toMap(v -> v.toolId, Function.identity()));
                    return tools.stream().map(t -> {
                        ToolManifest m = entries.manifest(byTool.get(t.id).manifest);
                        return new ToolSummary(t.id, m.verb(), m.name(), m.description(), m.namespace(), m.domain(),
                                m.risk(), t.currentVersion, t.status, List.of(t.allowedCallers), t.updatedAt);
                    }).toList();
                });
    }
}
