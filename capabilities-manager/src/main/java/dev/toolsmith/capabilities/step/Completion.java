package dev.toolsmith.capabilities.step;

import dev.toolsmith.contracts.step.StepResult;
import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * A step's result and what else must commit with it (a learned alias, a capability gap), plus what to
 * do once it has committed (refresh an in-memory cache).
 */
public record Completion(StepResult result, Supplier<Uni<Void>> alsoInTransaction, Runnable afterCommit) {

    public static Completion of(StepResult result) {
        return new Completion(result, () -> Uni.createFrom().voidItem(), () -> {
        });
    }
}
