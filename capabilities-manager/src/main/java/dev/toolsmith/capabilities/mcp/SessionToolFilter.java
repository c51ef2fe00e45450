package dev.toolsmith.capabilities.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import io.quarkiverse.mcp.server.FilterContext;
import io.quarkiverse.mcp.server.McpMethod;
import io.quarkiverse.mcp.server.MetaKey;
import io.quarkiverse.mcp.server.ToolFilter;
import io.quarkiverse.mcp.server.ToolManager;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The meta-tools for every session; a loaded catalog tool only for the session and caller that loaded it
 * ({@link ActiveToolSets#key}) and, in a
 * {@code tools/list} with a query ({@link ListingQuery}), only when it matches the query. The meta-tools stay
 * listed whatever the query says: they are how a planner finds everything else, and a client that replaces its
 * tool list with a filtered listing must not lose {@code find_tools}.
 *
 * <p>It never throws: the library would log the exception and list the tool (fail open), so everything that can
 * go wrong while reading a request is turned into a refused query, and a caller that cannot be read into a hidden
 * tool, here (fail closed).
 */
@ApplicationScoped
public class SessionToolFilter implements ToolFilter {

    private static final Logger LOG = Logger.getLogger(SessionToolFilter.class);

    private static final MetaKey KEY = MetaKey.from(ListingQuery.KEY);

    private final LoadedTools loaded;
    private final ActiveToolSets sets;
    private final PluginRegistry registry;
    private final SecurityIdentity identity;

    public SessionToolFilter(LoadedTools loaded, ActiveToolSets sets, PluginRegistry registry,
            SecurityIdentity identity) {
        this.loaded = loaded;
        this.sets = sets;
        this.registry = registry;
        this.identity = identity;
    }

    @Override
    public boolean test(ToolManager.ToolInfo tool, FilterContext context) {
        String toolId = loaded.toolIdOf(tool.name());
        if (toolId == null) {
            return true;
        }
        String caller = caller();
        if (caller == null || !sets.has(ActiveToolSets.key(context.connection().id(), caller), toolId)) {
            return false;
        }
        if (context.method() != McpMethod.TOOLS_LIST) {
            return true; // tools/call consults the filter too: a query narrows what is listed, never what may be called
        }
        ListingQuery query = query(context);
        return query == ListingQuery.NONE || query.matches(texts(toolId));
    }

    private static ListingQuery query(FilterContext context) {
        ListingQuery query;
        try {
            query = ListingQuery.of(context.meta().getValue(KEY)); // one value: asJsonObject() would copy all of _meta
        } catch (RuntimeException e) {
            // params or params._meta that is not a JSON object (the library's reader throws a ClassCastException)
            query = ListingQuery.refused("params._meta: not a JSON object");
        }
        if (query.refused()) {
            LOG.debugf("tools/list of session %s: %s; only the meta-tools are listed", context.connection().id(),
                    query.refusal());
        }
        return query;
    }

    /** The caller whose key authenticated this request, or null when none can be read (its tools stay hidden). */
    private String caller() {
        try {
            return identity.isAnonymous() ? null : identity.getPrincipal().getName();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * What a query is matched against: the tool's name, verb (its MCP name), description and parameter names, as
     * its manifest has them (what {@link LoadedTools} listed it with).
     */
    private List<String> texts(String toolId) {
        List<String> texts = new ArrayList<>();
        registry.byToolId(toolId).map(Plugin::manifest).ifPresent(manifest -> {
            texts.add(manifest.name());
            texts.add(manifest.verb());
            texts.add(manifest.description());
            JsonNode properties = manifest.inputSchema() == null ? null : manifest.inputSchema().get("properties");
            if (properties != null && properties.isObject()) {
                properties.fieldNames().forEachRemaining(texts::add);
            }
        });
        return texts;
    }
}
