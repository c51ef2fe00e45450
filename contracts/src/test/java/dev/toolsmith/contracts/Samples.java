package dev.toolsmith.contracts;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.build.CaseResult;
import dev.toolsmith.contracts.build.PluginBuilt;
import dev.toolsmith.contracts.build.PluginStatus;
import dev.toolsmith.contracts.build.PluginStatusChanged;
import dev.toolsmith.contracts.build.VerificationReport;
import dev.toolsmith.contracts.event.MessageType;
import dev.toolsmith.contracts.event.Notification;
import dev.toolsmith.contracts.search.CapabilityGap;
import dev.toolsmith.contracts.search.SearchFilters;
import dev.toolsmith.contracts.search.SearchHit;
import dev.toolsmith.contracts.search.SearchReply;
import dev.toolsmith.contracts.search.SearchRequest;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.ServedBy;
import dev.toolsmith.contracts.step.StepInput;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.ToolChoice;
import dev.toolsmith.contracts.step.StepStatus;
import dev.toolsmith.contracts.step.Substitution;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.CatalogEntry;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.Risk;
import dev.toolsmith.contracts.tool.ToolManifest;
import dev.toolsmith.contracts.tool.ToolSourceType;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A fully populated instance of every contract, for round-trip and schema tests. */
final class Samples {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Instant NOW = Instant.parse("2026-11-22T10:15:30Z");

    static Object of(MessageType type) {
        return switch (type) {
            case PLAN_STEP -> planStep();
            case STEP_RESULT -> stepResult();
            case TOOL_MANIFEST -> manifest();
            case SEARCH_REQUEST -> new SearchRequest("step-1", "convert an amount between currencies",
                    "CONVERT_CURRENCY", List.of("EUR", "USD"),
                    new SearchFilters("finance", "fx", List.of(Risk.READ_ONLY), "active"), 5, "planner-a");
            case SEARCH_REPLY -> new SearchReply("step-1", List.of(hit()), 0.8, null);
            case CAPABILITY_GAP -> new CapabilityGap("reserve table", "RESERVE_TABLE", "book a table for two",
                    List.of("restaurant", "time"), "step-9", "plan-1", 3, List.of(hit()));
            case USAGE_POLICY -> policy();
            case TOOL_APPROVED -> new ToolApproved("fx.convert", 2, manifest(), policy(),
                    JSON.objectNode().put("operationId", "convert"), "src-1", "alice", NOW, null);
            case PLUGIN_BUILT -> new PluginBuilt("fx.convert", 2, true, manifest(), policy(),
                    new VerificationReport(true, List.of(new CaseResult("example", "EXAMPLE", true, "200 OK")), 42),
                    null, null);
            case PLUGIN_STATUS_CHANGED -> new PluginStatusChanged("fx.convert", PluginStatus.DISABLED,
                    "5 consecutive probe failures", "health-worker", NOW);
            case NOTIFICATION -> new Notification("n-1", Notification.Kind.PLUGIN_DISABLED,
                    Notification.Severity.WARNING, "fx.convert disabled", "5 consecutive failures", "fx.convert", NOW);
            case CATALOG_ENTRY -> new CatalogEntry("fx.convert", 17, 2, CatalogEntry.ACTIVE, manifest(),
                    List.of("planner-a"), "bge-small-en-v1.5-q", "AQAAAA==");
        };
    }

    static PlanStep planStep() {
        return new PlanStep("step-2", "plan-1", "CONVERT_CURRENCY", "convert 10 EUR to USD",
                Map.of("amount", StepInput.literal(JSON.numberNode(10), "number"),
                        "from", StepInput.reference("step-1", "currency")),
                Map.of("converted", "the amount in the target currency"), "planner-a", "fx.convert");
    }

    static StepResult stepResult() {
        return new StepResult("step-2", "plan-1", StepStatus.SUBSTITUTED, Map.of("converted", JSON.numberNode(10.9)),
                new ServedBy("fx.convert", "FX_CONVERT", 2),
                new Substitution("CONVERT_CURRENCY", 0.97, false, Map.of("amount", "amount")),
                List.of(planStep()), List.of(hit()), null, NOW,
                List.of(new ToolChoice("fx.convert", "FX_CONVERT", "Converts an amount.", Risk.READ_ONLY,
                        List.of("amount", "from", "to"), 0.97)));
    }

    static SearchHit hit() {
        return new SearchHit("fx.convert", "FX_CONVERT", "Convert currency", "Converts an amount", 1.7, 0.97,
                List.of("name", "semantic"), Risk.READ_ONLY, 2);
    }

    static UsagePolicy policy() {
        return new UsagePolicy(new UsagePolicy.RateLimit(5.0, 100, 10), new UsagePolicy.Quota(1000L, 20000L),
                new UsagePolicy.Budget("EUR", new BigDecimal("0.01"), new BigDecimal("8"), new BigDecimal("10")),
                List.of("planner-a"), Map.of("apiKey", "v1:c2VjcmV0"));
    }

    static ToolManifest manifest() {
        ObjectNode input = JSON.objectNode().put("type", "object");
        input.putObject("properties").putObject("amount").put("type", "number");
        input.putArray("required").add("amount");
        HttpBinding binding = new HttpBinding("GET", "https://api.example.com/v1", "/convert/{from}",
                List.of(new ParameterBinding("amount", "amount", ParameterLocation.QUERY, "form", true, true),
                        new ParameterBinding("from", "from", ParameterLocation.PATH, "simple", false, true)),
                BodyEncoding.NONE, new AuthBinding(AuthBinding.Scheme.API_KEY_HEADER, "X-Api-Key", "apiKey"), 5000,
                1_000_000);
        return new ToolManifest("fx.convert", "FX_CONVERT", "Convert currency", "Converts an amount between currencies",
                ToolSourceType.OPENAPI, "finance", "fx", List.of("money"), input,
                JSON.objectNode().put("type", "object"), Risk.READ_ONLY, binding,
                new HealthProbe(binding, Map.of("amount", JSON.numberNode(1), "from", JSON.textNode("EUR")), 30, null),
                2, "sha256:abc");
    }

    private Samples() {
    }
}
