package dev.toolsmith.capabilities.step;

import dev.toolsmith.eventing.security.Roles;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Who reads steps, and so which steps exist for them: a caller sees the steps it sent; admins and viewers
 * (people who oversee the platform; viewers read whatever admins read) see every caller's. Everything else
 * is answered as if it had never been sent.
 */
public record StepReader(String caller, boolean seesAll) {

    public static StepReader of(SecurityIdentity identity) {
        return new StepReader(identity.getPrincipal().getName(),
                identity.hasRole(Roles.ADMIN) || identity.hasRole(Roles.VIEWER));
    }

    public boolean sees(String owner) {
        return seesAll || StoredStep.belongsTo(owner, caller);
    }
}
