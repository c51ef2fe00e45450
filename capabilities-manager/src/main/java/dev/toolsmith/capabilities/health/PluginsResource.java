package dev.toolsmith.capabilities.health;

import dev.toolsmith.capabilities.policy.PoliciesInForce;
import dev.toolsmith.capabilities.policy.RedactedPolicy;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.capabilities.registry.PluginType;
import dev.toolsmith.capabilities.usage.ToolUsage;
import dev.toolsmith.capabilities.usage.UsagePeriod;
import dev.toolsmith.capabilities.usage.UsageQueries;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.eventing.ReactiveBridge;
import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * Plugins as operators see them: status, health and its history, the policy in force (secret names
 * only), usage; and the admins' levers: disable, enable, probe now, per-plugin health thresholds.
 */
@Path("/plugins")
@Produces(MediaType.APPLICATION_JSON)
public class PluginsResource {

    /** Optional body of disable/enable: why, for the history and the notification. */
    public record Change(String reason) {
    }

    private final PluginRegistry registry;
    private final HealthStore health;
    private final HealthWorker worker;
    private final PluginStatusChanges changes;
    private final ThresholdChanges thresholdChanges;
    private final PoliciesInForce policies;
    private final UsageQueries usage;
    private final HealthSettings settings;
    private final SecurityIdentity identity;
    private final com.fasterxml.jackson.databind.ObjectMapper mapper;

    public PluginsResource(PluginRegistry registry, HealthStore health, HealthWorker worker, PluginStatusChanges changes,
            ThresholdChanges thresholdChanges, PoliciesInForce policies, UsageQueries usage, HealthSettings settings,
            SecurityIdentity identity, dev.toolsmith.contracts.event.ContractCodec codec) {
        this.mapper = codec.mapper();
        this.registry = registry;
        this.health = health;
        this.worker = worker;
        this.changes = changes;
        this.thresholdChanges = thresholdChanges;
        this.policies = policies;
        this.usage = usage;
        this.settings = settings;
        this.identity = identity;
    }

    @GET
    @Blocking
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.PLANNER, Roles.SERVICE})
    @Operation(summary = "Every registered plugin with its status and, for wrapped plugins, its health")
    public List<PluginView.Summary> list() {
        Map<String, HealthStore.HealthRow> rows = health.all();
        Map<String, HealthStore.Recent> recent = health.recent(Instant.now().minus(Duration.ofHours(24)));
        return registry.all().stream().sorted(Comparator.comparing(Plugin::verb)).map(p -> {
            HealthStore.HealthRow row = rows.get(p.toolId());
            HealthStore.Recent figures = recent.get(p.toolId());
            return new PluginView.Summary(p.toolId(), p.verb(), p.manifest().name(), p.type().name(),
                    row == null ? p.status() : PluginStatus.valueOf(row.status()), p.statusReason(), p.version(),
                    p.contentHash(), row == null ? null : row.lastProbeAt(), row == null ? null : row.lastProbeOk(),
                    row == null ? null : row.consecutiveFailures(), figures == null ? null : figures.errorRate(),
                    figures == null ? null : figures.latencyP50Ms(), row == null ? null : row.nextProbeAt(),
                    row == null ? null : row.disabledBy());
        }).toList();
    }

    @GET
    @Path("{id}")
    @Blocking
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN, Roles.PLANNER, Roles.SERVICE})
    @Operation(summary = "A plugin: status, policy in force (secret names only), health, probe and status history")
    public PluginView.Details get(@PathParam("id") String toolId) {
        Plugin plugin = plugin(toolId);
        var row = health.find(toolId);
        int limit = settings.historyLimit();
        return new PluginView.Details(plugin.toolId(), plugin.verb(), plugin.manifest().name(), plugin.type().name(),
                row.map(r -> PluginStatus.valueOf(r.status())).orElse(plugin.status()), plugin.statusReason(),
                plugin.version(), plugin.contentHash(), plugin.manifest(),
                plugin.type() == PluginType.WRAPPED_HTTP ? RedactedPolicy.of(policies.of(plugin)) : null,
                row.map(PluginView.Health::of).orElse(null), worker.thresholdsOf(toolId).orElse(null),
                health.probes(toolId, limit), health.statusChanges(toolId, limit));
    }

    @GET
    @Path("{id}/usage")
    @Blocking
    @RolesAllowed({Roles.VIEWER, Roles.ADMIN})
    @Operation(summary = "A plugin's calls, errors, latency p50/p95 and spend against its budget, per caller; period=day|month")
    public ToolUsage usage(@PathParam("id") String toolId, @QueryParam("period") String period) {
        Plugin plugin = plugin(toolId);
        Instant now = Instant.now();
        return usage.forTool(toolId, policies.of(plugin), UsagePeriod.parse(period, now), now);
    }

    @POST
    @Path("{id}/disable")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Disable a plugin: it stops serving and leaves search until an admin enables it")
    public Uni<PluginView.Summary> disable(@PathParam("id") String toolId, String body) {
        return setStatus(toolId, PluginStatus.DISABLED, reason(body, "disabled by an admin"));
    }

    @POST
    @Path("{id}/enable")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Enable a plugin")
    public Uni<PluginView.Summary> enable(@PathParam("id") String toolId, String body) {
        return setStatus(toolId, PluginStatus.ENABLED, reason(body, "enabled by an admin"));
    }

    @POST
    @Path("{id}/probe")
    @Blocking
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Probe a wrapped plugin now; the result counts like a scheduled probe")
    public ProbeReport probe(@PathParam("id") String toolId) {
        Plugin plugin = plugin(toolId);
        if (plugin.type() != PluginType.WRAPPED_HTTP) {
            throw new IllegalArgumentException(toolId + " is an internal plugin: only wrapped HTTP plugins are probed");
        }
        health.trackNewPlugins();
        return worker.probe(toolId, "admin " + identity.getPrincipal().getName())
                .orElseThrow(() -> new NotFoundException("plugin " + toolId + " is not tracked by the health worker yet"));
    }

    @PUT
    @Path("{id}/health-thresholds")
    @Consumes(MediaType.APPLICATION_JSON)
    @Blocking
    @RolesAllowed(Roles.ADMIN)
    @Operation(summary = "Set a wrapped plugin's own health thresholds; omitted fields use the configured defaults")
    public HealthThresholds thresholds(@PathParam("id") String toolId, String body) {
        ThresholdOverrides overrides = parse(body, ThresholdOverrides.class);
        Plugin plugin = plugin(toolId);
        if (plugin.type() != PluginType.WRAPPED_HTTP) {
            throw new IllegalArgumentException(toolId + " is an internal plugin: it has no health checks");
        }
        health.trackNewPlugins();
        ThresholdOverrides own = overrides == null ? new ThresholdOverrides(null, null, null, null, null) : overrides;
        return ReactiveBridge.await(() -> thresholdChanges.change(toolId, own,
                stored -> worker.thresholds(plugin, stored), "admin " + identity.getPrincipal().getName()))
                .orElseThrow(() -> new NotFoundException("plugin " + toolId + " is not tracked by the health worker yet"));
    }

    private Uni<PluginView.Summary> setStatus(String toolId, PluginStatus status, String reason) {
        plugin(toolId);
        String by = "admin " + identity.getPrincipal().getName();
        return changes.change(toolId, status, reason, PluginStatusChanges.Actor.ADMIN, by).map(changed -> {
            Plugin now = plugin(toolId);
            return new PluginView.Summary(now.toolId(), now.verb(), now.manifest().name(), now.type().name(),
                    now.status(), now.statusReason(), now.version(), now.contentHash(), null, null, null, null, null,
                    null, null);
        });
    }

    /** The optional {"reason": ...} of disable/enable; the UI may send no body at all. */
    private String reason(String body, String fallback) {
        Change change = parse(body, Change.class);
        return change == null || change.reason() == null || change.reason().isBlank() ? fallback : change.reason().strip();
    }

    /** Null for an empty body; a 400 naming the problem (e.g. the field a threshold breaks) for a bad one. */
    private <T> T parse(String body, Class<T> type) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return mapper.readValue(body, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            throw new IllegalArgumentException(root instanceof IllegalArgumentException ? root.getMessage()
                    : "not a valid " + type.getSimpleName() + ": " + e.getOriginalMessage());
        }
    }

    private Plugin plugin(String toolId) {
        return registry.byToolId(toolId).orElseThrow(() -> new NotFoundException("no plugin '" + toolId + "' is registered"));
    }
}
