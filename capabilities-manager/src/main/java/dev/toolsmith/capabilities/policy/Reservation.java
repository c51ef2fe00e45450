package dev.toolsmith.capabilities.policy;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * Units of quota and budget held for one call. {@code day}/{@code month} are the period rows that were
 * counted (null when the policy has no limit that needs them), so a call that never left the building
 * can give exactly them back.
 */
public record Reservation(String toolId, LocalDate day, LocalDate month, BigDecimal cost) {

    public static Reservation none(String toolId) {
        return new Reservation(toolId, null, null, BigDecimal.ZERO);
    }

    public boolean holdsAnything() {
        return day != null || month != null;
    }
}
