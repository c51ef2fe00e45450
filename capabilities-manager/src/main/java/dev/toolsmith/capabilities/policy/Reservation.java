package dev.toolsmith.capabilities.policy;

import java.math.BigDecimal;
import java.time.LocalDate;

/**
 * Units of quota and budget held for one call. {@code day}/{@code month} are the period rows that count
 * it (null when the policy has no limit that needs them) and {@code lease} the units this replica drew
 * ahead that the call came from (null when nothing was reserved), so a call that never left the building
 * can give its unit back.
 */
public record Reservation(String toolId, LocalDate day, LocalDate month, BigDecimal cost, DrawnUnits lease) {

    public static Reservation none(String toolId) {
        return new Reservation(toolId, null, null, BigDecimal.ZERO, null);
    }

    public boolean holdsAnything() {
        return day != null || month != null;
    }
}
