package dev.toolsmith.engineer.verify;

import java.util.List;

/**
 * A plugin's generated verification suite. {@code verificationSecret} is the placeholder each auth
 * secret takes during verification (never a real secret), so the expected auth can be checked on the wire.
 */
public record VerificationSuite(String toolId, int version, List<VerificationCase> cases, List<String> notes,
        String verificationSecret) {

    public VerificationSuite {
        cases = List.copyOf(cases);
        notes = notes == null ? List.of() : List.copyOf(notes);
    }
}
