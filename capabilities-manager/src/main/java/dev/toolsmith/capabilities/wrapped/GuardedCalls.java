package dev.toolsmith.capabilities.wrapped;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.execution.ExecutionContext;
import dev.toolsmith.capabilities.execution.PluginOutcome;
import dev.toolsmith.capabilities.policy.Admission;
import dev.toolsmith.capabilities.policy.PoliciesInForce;
import dev.toolsmith.capabilities.policy.PolicyGate;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.usage.CallRecord;
import dev.toolsmith.capabilities.usage.UsageRecorder;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * A call of a wrapped tool as a step makes it: the policy first (caller, rate, quota, budget), then the
 * sandboxed executor, then the call's record for usage and health. A refusal by policy is
 * {@link PluginOutcome.Denied} and nothing is sent; a failed call is {@link PluginOutcome.Failed}
 * with the HTTP status and a short reason (never a secret). Runs on a worker thread: both the policy's
 * database checks and the HTTP call block.
 */
@ApplicationScoped
public class GuardedCalls {

    private static final Logger LOG = Logger.getLogger(GuardedCalls.class);

    private final PoliciesInForce policies;
    private final PolicyGate gate;
    private final WrappedCalls calls;
    private final UsageRecorder usage;

    public GuardedCalls(PoliciesInForce policies, PolicyGate gate, WrappedCalls calls, UsageRecorder usage) {
        this.policies = policies;
        this.gate = gate;
        this.calls = calls;
        this.usage = usage;
    }

    public Uni<PluginOutcome> execute(Plugin plugin, ObjectNode inputs, ExecutionContext context) {
        if (context.caller() == null || context.caller().isBlank()) {
            // refused before any thread hop or database access: nothing to count against anyone
            return Uni.createFrom().item(new PluginOutcome.Denied("no caller identity: step " + context.stepId()
                    + " names no caller, and wrapped tools only run for an identified planner"));
        }
        return Uni.createFrom().item(() -> run(plugin, inputs, context.caller()))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    /** The whole guarded call, blocking. */
    public PluginOutcome run(Plugin plugin, ObjectNode inputs, String caller) {
        Instant now = Instant.now();
        UsagePolicy policy;
        Admission admission;
        try {
            policy = policies.of(plugin);
            admission = gate.admit(plugin.toolId(), policy, caller, now);
        } catch (RuntimeException e) {
            // Fail closed: when the policy cannot be checked, the call is not made.
            LOG.errorf(e, "policy check of %s failed", plugin.toolId());
            return new PluginOutcome.Failed("the usage policy could not be checked, so the call was not made: "
                    + e.getMessage());
        }
        if (admission instanceof Admission.Denied denied) {
            usage.record(new CallRecord(plugin.toolId(), caller, CallRecord.Kind.CALL, CallRecord.Outcome.DENIED, false,
                    null, null, null, denied.reason(), BigDecimal.ZERO, now));
            return new PluginOutcome.Denied(denied.reason());
        }
        Admission.Admitted admitted = (Admission.Admitted) admission;
        dev.toolsmith.sandbox.ExecutionOutcome outcome = calls.call(plugin.manifest(), fields(inputs), policy);
        BigDecimal cost = admitted.reservation().cost();
        if (HealthSignal.nothingSent(outcome)) {
            gate.release(admitted.reservation());
            cost = BigDecimal.ZERO;
        }
        usage.record(new CallRecord(plugin.toolId(), caller, CallRecord.Kind.CALL,
                outcome.succeeded() ? CallRecord.Outcome.SUCCEEDED : CallRecord.Outcome.FAILED,
                HealthSignal.isHealthFailure(outcome), outcome.durationMs(), outcome.httpStatus(),
                outcome.failureKind() == null ? null : outcome.failureKind().name(), outcome.reason(), cost, now));
        return toStepOutcome(outcome);
    }

    static PluginOutcome toStepOutcome(dev.toolsmith.sandbox.ExecutionOutcome outcome) {
        if (!outcome.succeeded()) {
            String status = outcome.httpStatus() == null ? "" : "HTTP " + outcome.httpStatus() + ", ";
            String reason = outcome.reason();
            // the sandbox's reasons for HTTP failures already start with "HTTP <status>"
            if (reason != null && outcome.httpStatus() != null && reason.startsWith("HTTP " + outcome.httpStatus())) {
                status = "";
            }
            return new PluginOutcome.Failed(outcome.failureKind() + ": " + status + reason);
        }
        JsonNode outputs = outcome.outputs();
        if (outputs instanceof ObjectNode object) {
            return new PluginOutcome.Succeeded(object);
        }
        if (outputs == null || outputs.isNull()) {
            return new PluginOutcome.Succeeded(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode());
        }
        // Step outputs are named values: an API answering with a bare array or text has no names to give.
        return new PluginOutcome.Failed("INVALID_OUTPUT: HTTP " + outcome.httpStatus() + ", the response is a JSON "
                + outputs.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + ", but step outputs must be an object");
    }

    private static Map<String, JsonNode> fields(ObjectNode inputs) {
        Map<String, JsonNode> fields = new LinkedHashMap<>();
        if (inputs != null) {
            inputs.fields().forEachRemaining(field -> fields.put(field.getKey(), field.getValue()));
        }
        return fields;
    }
}
