package dev.toolsmith.capabilities.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.util.OptionalDouble;

/** When a novel verb may be served by a search hit, under {@code toolsmith.substitution.*}. */
@ConfigMapping(prefix = "toolsmith.substitution")
public interface SubstitutionConfig {

    /**
     * The confidence a hit needs to be substituted. Unset: the librarian's calibrated
     * {@code substitutionThreshold} from each reply is used.
     */
    OptionalDouble threshold();

    /**
     * The lower confidence at which a hit may still be substituted when the step's inputs confirm it:
     * every input feeds a parameter of the tool by name (exactly, as a known synonym or spelling variant)
     * and every required parameter is fed. The search confidence is calibrated on natural-language
     * queries that carry no inputs; a step whose named inputs are exactly the tool's contract is
     * independent evidence that the planner means this tool. Never above {@link #threshold()}.
     */
    @WithName("contract-confirmed-threshold")
    @WithDefault("0.5")
    double contractConfirmedThreshold();
}
