package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.registry.Alias;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.capabilities.registry.PluginRegistry;
import dev.toolsmith.contracts.step.PlanStep;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.Substitution;
import dev.toolsmith.contracts.tool.VerbNormalizer;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Optional;

/**
 * A step whose verb no tool registers but that names the tool its planner chose ({@code toolId}, one of an
 * earlier result's choices): the chosen tool runs like a substitution (inputs mapped onto its schema, then the
 * policy, sandbox and schema checks of any call) and, when it succeeds, the verb is learned as its alias with
 * confidence 1, since the planner confirmed it. A chosen risky tool runs too: choosing it is the confirmation
 * a PROPOSED result asks for.
 */
@ApplicationScoped
public class ChosenTools {

    private final PluginRegistry registry;
    private final InputMapper mapper;

    public ChosenTools(PluginRegistry registry, InputMapper mapper) {
        this.registry = registry;
        this.mapper = mapper;
    }

    public Uni<Resolution> resolve(PlanStep step, ObjectNode inputs) {
        Optional<Plugin> chosen = registry.byToolId(step.toolId());
        if (chosen.isEmpty()) {
            return failed(step, "toolId '" + step.toolId() + "' names no registered tool");
        }
        Plugin plugin = chosen.get();
        if (!plugin.serves()) {
            return failed(step, "the chosen tool " + plugin.toolId() + " is disabled: " + plugin.statusReason());
        }
        InputMapping mapping = mapper.map(inputs, plugin.manifest().inputSchema());
        if (!mapping.complete()) {
            return failed(step, "the chosen tool " + plugin.toolId() + " (" + plugin.verb() + ") needs inputs this step "
                    + "lacks: " + String.join(", ", mapping.unmappedRequired()));
        }
        Substitution confirmed = new Substitution(step.actionVerb(), 1.0, false, mapping.assignments());
        Alias alias = new Alias(VerbNormalizer.normalize(step.actionVerb()), plugin.toolId(), plugin.verb(), 1.0,
                step.stepId(), Instant.now());
        return Uni.createFrom().item(new Resolution.Substitute(plugin, mapping.apply(inputs), confirmed, alias,
                "chosen by the planner"));
    }

    private static Uni<Resolution> failed(PlanStep step, String why) {
        return Uni.createFrom().item(Resolution.Answered.of(StepResult.failed(step, why)));
    }
}
