package dev.toolsmith.search;

import java.util.Locale;

/**
 * Which pair of step models turns a plan step's evidence into its confidence (docs/search-measurements.md, "When the right tool is
 * not in the catalog"). Both are fitted on the two step-shaped sets; they differ in what they were shown.
 *
 * <p>A step whose right tool is not in the catalog still has a best match, usually a sibling operation of the same API
 * (the list operation for a "get one" step, the video licences for an image-licence step), and its evidence looks like
 * a right answer's. {@link #STANDARD} was fitted only on steps whose tool was there, so about a fifth of the steps
 * without a tool clear the threshold with a wrong tool. {@link #CAUTIOUS} was fitted with such steps as a tenth of its
 * rows: about a twelfth of them clear, and it answers about a third fewer of the steps that do have a tool. Which is
 * right depends on how often a deployment's planners ask for verbs its catalog does not serve.
 */
public enum StepConfidence {
    /** Fitted on steps whose tool is in the catalog: the most steps answered; the default. */
    STANDARD,
    /** Fitted with a tenth of its steps lacking their tool: fewer answers, far fewer wrong ones when tools are missing. */
    CAUTIOUS;

    /** {@code standard} or {@code cautious}, any case; anything else is refused, naming {@code setting}. */
    public static StepConfidence parse(String setting, String value) {
        if (value != null) {
            for (StepConfidence c : values()) {
                if (c.name().equalsIgnoreCase(value.strip())) {
                    return c;
                }
            }
        }
        throw new IllegalArgumentException(setting + " must be standard or cautious, got '" + value + "'");
    }

    /** The setting's value as written in configuration. */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
