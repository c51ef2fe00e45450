package dev.toolsmith.capabilities.policy;

/** The policy's answer before a call: go (holding a reservation of quota and budget), or the reason not to. */
public sealed interface Admission {

    record Admitted(Reservation reservation) implements Admission {
    }

    record Denied(String reason) implements Admission {
    }
}
