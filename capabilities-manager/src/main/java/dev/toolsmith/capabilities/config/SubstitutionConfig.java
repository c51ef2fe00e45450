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
     * and every required parameter is fed. Off by default (1: never below {@link #threshold()}). The step
     * confidence already weighs how the inputs fit, and measured on the plan-step sets the substitutions this
     * rule adds at 0.5 were right only 86 % (OpenAPI steps) and 90 % (Seal-Tools steps) of the time, under the
     * threshold's 95 %, and it substituted a wrong tool for 2.4–4.9 % of steps whose tool was not in the catalog
     * (docs/decisions/2026-11-29-contract-confirmed-rule-off.md). A deployment that trades precision for coverage
     * may set it lower. Never above {@link #threshold()}.
     */
    @WithName("contract-confirmed-threshold")
    @WithDefault("1")
    double contractConfirmedThreshold();
}
