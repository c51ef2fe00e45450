package dev.toolsmith.ui.security;

/** A person who may sign in: a name, a bcrypt hash (modular crypt format) and one role. */
public record ConfiguredUser(String name, String passwordHash, UiRole role) {

    @Override
    public String toString() {
        // Never print the hash: it is a password verifier.
        return "ConfiguredUser[" + name + ", " + role.wireName() + "]";
    }
}
