package dev.toolsmith.capabilities.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.ToolManifest;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Optional;

/**
 * The {@code plugin} table. Writes run inside the caller's transaction (so an announcement in the
 * outbox commits with them); {@link #loadAll()} and {@link #load(String)} open their own session.
 */
@ApplicationScoped
public class PluginStore {

    private static final String COLUMNS =
            "tool_id, verb, plugin_type, status, status_reason, version, content_hash, manifest::text, policy::text";

    private final ObjectMapper mapper;

    public PluginStore(ContractCodec codec) {
        this.mapper = codec.mapper();
    }

    public Uni<List<Plugin>> loadAll() {
        return Panache.withSession(() -> Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT " + COLUMNS + " FROM plugin", Object[].class)
                .getResultList())
                .map(rows -> rows.stream().map(this::toPlugin).toList()));
    }

    /** One plugin's row, read in a session of its own (as {@link #loadAll()}): after its change committed. */
    public Uni<Optional<Plugin>> load(String toolId) {
        return Panache.withSession(() -> find(toolId));
    }

    public Uni<Optional<Plugin>> find(String toolId) {
        return Panache.getSession().chain(session -> session
                .createNativeQuery("SELECT " + COLUMNS + " FROM plugin WHERE tool_id = :id", Object[].class)
                .setParameter("id", toolId)
                .getResultList())
                .map(rows -> rows.stream().findFirst().map(this::toPlugin));
    }

    /**
     * Inserts the plugin, or replaces it when its content changed, taking the next version. Returns the stored
     * plugin when something changed, empty when the same content was already registered. One statement, so
     * concurrent replicas registering the same plugin announce it once. Content is compared by hash: a stored hash
     * of the same content in an earlier hash version (ContentHash) is kept, so it reads as no change.
     */
    public Uni<Optional<Plugin>> upsertIfChanged(Plugin plugin, int firstVersion) {
        String sql = "INSERT INTO plugin (tool_id, verb, plugin_type, status, version, content_hash, manifest, policy) "
                + "VALUES (:id, :verb, :type, :status, :version, :hash, CAST(CAST(:manifest AS text) AS jsonb), CAST(CAST(:policy AS text) AS jsonb)) "
                + "ON CONFLICT (tool_id) DO UPDATE SET verb = EXCLUDED.verb, plugin_type = EXCLUDED.plugin_type, "
                + "version = GREATEST(plugin.version + 1, EXCLUDED.version), content_hash = EXCLUDED.content_hash, "
                + "manifest = EXCLUDED.manifest, policy = EXCLUDED.policy, updated_at = now() "
                + "WHERE plugin.content_hash <> EXCLUDED.content_hash RETURNING version";
        return storedHashOfSameContent(plugin).chain(kept -> {
            String hash = kept.orElse(plugin.contentHash());
            return Panache.getSession().chain(session -> session.createNativeQuery(sql, Integer.class)
                    .setParameter("id", plugin.toolId())
                    .setParameter("verb", plugin.verb())
                    .setParameter("type", plugin.type().name())
                    .setParameter("status", plugin.status().name())
                    .setParameter("version", firstVersion)
                    .setParameter("hash", hash)
                    .setParameter("manifest", json(plugin.manifest()))
                    .setParameter("policy", plugin.policy() == null ? null : json(plugin.policy()))
                    .getResultList());
        }).map(versions -> versions.stream().findFirst().map(version -> versioned(plugin, version)));
    }

    /** The registered plugin's hash when it is of {@code plugin}'s content in the hash version it names. */
    private Uni<Optional<String>> storedHashOfSameContent(Plugin plugin) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT content_hash FROM plugin WHERE tool_id = :id", String.class)
                .setParameter("id", plugin.toolId()).getResultList())
                .map(hashes -> hashes.stream().findFirst()
                        .filter(stored -> !stored.equals(plugin.contentHash())
                                && ContentHash.matches(stored, plugin.manifest(), mapper)));
    }

    /**
     * Puts a new usage policy in force for an already registered plugin whose content did not change (a
     * re-approval with other limits). True when the stored policy differed. The policy is not part of
     * the content hash, so the plugin keeps its version.
     */
    public Uni<Boolean> updatePolicy(String toolId, JsonNode policy) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE plugin SET policy = CAST(CAST(:policy AS text) AS jsonb), updated_at = now() "
                        + "WHERE tool_id = :id AND policy IS DISTINCT FROM CAST(CAST(:policy AS text) AS jsonb)")
                .setParameter("policy", policy == null ? null : json(policy))
                .setParameter("id", toolId)
                .executeUpdate())
                .map(updated -> updated == 1);
    }

    /** Sets a plugin's status; false when no such plugin is registered. */
    public Uni<Boolean> setStatus(String toolId, PluginStatus status, String reason) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE plugin SET status = :status, status_reason = :reason, updated_at = now() WHERE tool_id = :id")
                .setParameter("status", status.name())
                .setParameter("reason", reason)
                .setParameter("id", toolId)
                .executeUpdate())
                .map(updated -> updated == 1);
    }

    /**
     * Removes a retired plugin, its health state and the aliases learned for it; usage history stays for the
     * records. False when no such plugin was registered.
     */
    public Uni<Boolean> forget(String toolId) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "DELETE FROM verb_alias WHERE tool_id = :id").setParameter("id", toolId).executeUpdate()
                .chain(() -> session.createNativeQuery("DELETE FROM plugin_health WHERE tool_id = :id")
                        .setParameter("id", toolId).executeUpdate())
                .chain(() -> session.createNativeQuery("DELETE FROM plugin WHERE tool_id = :id")
                        .setParameter("id", toolId).executeUpdate()))
                .map(deleted -> deleted == 1);
    }

    /** The approval build version a wrapped plugin runs under, if it is registered and has one. */
    public Uni<Optional<Integer>> approvedVersion(String toolId) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT approved_version FROM plugin WHERE tool_id = :id AND approved_version IS NOT NULL", Integer.class)
                .setParameter("id", toolId).getResultList())
                .map(versions -> versions.stream().findFirst());
    }

    /** Remembers that {@code toolId} now runs under approval {@code version} (never moving back). */
    public Uni<Void> recordApprovedVersion(String toolId, int version) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "UPDATE plugin SET approved_version = GREATEST(COALESCE(approved_version, 0), :version) WHERE tool_id = :id")
                .setParameter("version", version).setParameter("id", toolId).executeUpdate())
                .replaceWithVoid();
    }

    /** The tool that currently holds {@code verb}, if any (verbs are unique, case-insensitively). */
    public Uni<Optional<String>> holderOfVerb(String verb) {
        return Panache.getSession().chain(session -> session.createNativeQuery(
                "SELECT tool_id FROM plugin WHERE upper(verb) = upper(:verb)", String.class)
                .setParameter("verb", verb)
                .getResultList())
                .map(ids -> ids.stream().findFirst());
    }

    private Plugin versioned(Plugin plugin, int version) {
        ToolManifest manifest = plugin.manifest().withVersion(version, plugin.contentHash());
        return new Plugin(plugin.toolId(), plugin.verb(), plugin.type(), plugin.status(), plugin.statusReason(),
                version, plugin.contentHash(), manifest, plugin.policy());
    }

    private Plugin toPlugin(Object[] row) {
        try {
            int version = ((Number) row[5]).intValue();
            // The row's version and hash are authoritative; the stored manifest may predate an upsert.
            ToolManifest manifest = mapper.readValue((String) row[7], ToolManifest.class)
                    .withVersion(version, (String) row[6]);
            JsonNode policy = row[8] == null ? null : mapper.readTree((String) row[8]);
            return new Plugin((String) row[0], (String) row[1], PluginType.valueOf((String) row[2]),
                    PluginStatus.valueOf((String) row[3]), (String) row[4], version,
                    (String) row[6], manifest, policy);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("plugin " + row[0] + " has an unreadable manifest: " + e.getMessage(), e);
        }
    }

    private String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a manifest is always serialisable", e);
        }
    }
}
