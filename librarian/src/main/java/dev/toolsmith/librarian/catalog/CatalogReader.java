package dev.toolsmith.librarian.catalog;

import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import java.util.Optional;

/**
 * Who reads the catalog, and how much of it. Viewers, admins and services oversee the platform and see every
 * tool with its allowed callers. A planner reads what it may call: active tools whose allowed callers are
 * everyone or name it, without the allowed-callers lists (they name other callers); every other tool is
 * answered exactly like one that does not exist, so access is not revealed.
 */
record CatalogReader(Optional<String> planner) {

    static CatalogReader of(SecurityIdentity identity) {
        boolean oversees = identity.hasRole(Roles.VIEWER) || identity.hasRole(Roles.ADMIN)
                || identity.hasRole(Roles.SERVICE);
        return new CatalogReader(oversees ? Optional.empty() : Optional.of(identity.getPrincipal().getName()));
    }

    boolean sees(ToolDetails tool) {
        return planner.isEmpty() || (ToolStatus.ACTIVE.wire().equals(tool.status())
                && (tool.allowedCallers().isEmpty() || tool.allowedCallers().contains(planner.get())));
    }

    ToolDetails shown(ToolDetails tool) {
        return planner.isEmpty() ? tool : new ToolDetails(tool.id(), tool.version(), tool.status(), null,
                tool.manifest(), tool.versions(), tool.createdAt(), tool.updatedAt());
    }

    ToolSummary shown(ToolSummary tool) {
        return planner.isEmpty() ? tool : new ToolSummary(tool.id(), tool.verb(), tool.name(), tool.description(),
                tool.namespace(), tool.domain(), tool.risk(), tool.version(), tool.status(), null, tool.updatedAt());
    }
}
