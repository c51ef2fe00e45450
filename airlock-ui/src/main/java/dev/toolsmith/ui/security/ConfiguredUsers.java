package dev.toolsmith.ui.security;

import dev.toolsmith.ui.config.UiConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The sign-in users from configuration ({@code toolsmith.ui.users.<name>=<bcrypt-hash>:<role>}), parsed once
 * at start-up so a malformed entry stops the UI with a message naming it instead of failing at sign-in.
 */
@ApplicationScoped
public class ConfiguredUsers {

    private static final Pattern BCRYPT = Pattern.compile("^\\$2[abxy]?\\$\\d{2}\\$[./A-Za-z0-9]{53}$");
    private static final Pattern USER_NAME = Pattern.compile("^[A-Za-z0-9._@-]{1,64}$");

    private final Map<String, ConfiguredUser> users;

    @Inject
    public ConfiguredUsers(UiConfig config) {
        this(config.users());
    }

    ConfiguredUsers(Map<String, String> entries) {
        this.users = parse(entries);
    }

    public Optional<ConfiguredUser> find(String name) {
        return Optional.ofNullable(users.get(name));
    }

    public boolean isEmpty() {
        return users.isEmpty();
    }

    public int size() {
        return users.size();
    }

    static Map<String, ConfiguredUser> parse(Map<String, String> entries) {
        Map<String, ConfiguredUser> parsed = new TreeMap<>();
        entries.forEach((name, value) -> {
            if (!USER_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("toolsmith.ui.users." + name
                        + ": user names may use letters, digits and . _ @ - (1 to 64 characters)");
            }
            int colon = value.lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("toolsmith.ui.users." + name
                        + ": expected <bcrypt-hash>:<admin|viewer>, found no ':'");
            }
            String hash = value.substring(0, colon).trim();
            String roleName = value.substring(colon + 1).trim();
            UiRole role = UiRole.fromWireName(roleName).orElseThrow(() -> new IllegalArgumentException(
                    "toolsmith.ui.users." + name + ": unknown role '" + roleName + "' (use admin or viewer)"));
            if (!BCRYPT.matcher(hash).matches()) {
                throw new IllegalArgumentException("toolsmith.ui.users." + name
                        + ": the password must be a bcrypt hash such as $2a$10$... (plain passwords are refused)");
            }
            parsed.put(name, new ConfiguredUser(name, hash, role));
        });
        return Map.copyOf(parsed);
    }
}
