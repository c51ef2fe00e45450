package dev.toolsmith.capabilities.config;

import io.smallrye.config.ConfigMapping;
import java.util.OptionalDouble;

/** When a novel verb may be served by a search hit, under {@code toolsmith.substitution.*}. */
@ConfigMapping(prefix = "toolsmith.substitution")
public interface SubstitutionConfig {

    /**
     * The confidence a hit needs to be substituted. Unset: the librarian's calibrated
     * {@code substitutionThreshold} from each reply is used.
     */
    OptionalDouble threshold();
}
