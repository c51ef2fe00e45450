package dev.toolsmith.capabilities.resolution;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.capabilities.registry.Alias;
import dev.toolsmith.capabilities.registry.Plugin;
import dev.toolsmith.contracts.step.StepResult;
import dev.toolsmith.contracts.step.Substitution;
import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * What resolution decided for a step whose verb no plugin registers; the step package carries it out.
 * Resolution never runs a plugin itself, so it depends on nothing that runs steps.
 */
public sealed interface Resolution {

    /**
     * The step's answer is known without running anything (proposed, decomposed, unresolved, refused), with
     * what must commit with it (a capability gap).
     */
    record Answered(StepResult result, Supplier<Uni<Void>> alsoInTransaction) implements Resolution {

        public static Answered of(StepResult result) {
            return new Answered(result, () -> Uni.createFrom().voidItem());
        }
    }

    /**
     * Run {@code plugin} in place of the step's verb with {@code inputs} already mapped onto its schema; when
     * the call substitutes, learn {@code alias} in the result's transaction ({@code why} says why it was learned,
     * for the log).
     */
    record Substitute(Plugin plugin, ObjectNode inputs, Substitution substitution, Alias alias, String why)
            implements Resolution {
    }
}
