package dev.toolsmith.ui.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfiguredUsersTest {

    private static final String HASH = BcryptPasswords.hash("s3cret-pass");

    @Test
    void parsesHashAndRoleAndVerifiesThePassword() {
        ConfiguredUsers users = new ConfiguredUsers(Map.of("alice", HASH + ":admin", "bob", HASH + ":viewer"));
        assertThat(users.find("alice")).get().extracting(ConfiguredUser::role).isEqualTo(UiRole.ADMIN);
        assertThat(users.find("bob")).get().extracting(ConfiguredUser::role).isEqualTo(UiRole.VIEWER);
        assertThat(BcryptPasswords.matches("s3cret-pass", users.find("alice").get().passwordHash())).isTrue();
        assertThat(BcryptPasswords.matches("s3cret-pasS", users.find("alice").get().passwordHash())).isFalse();
        assertThat(users.find("alice").get().toString()).doesNotContain(HASH);
    }

    @Test
    void acceptsHashesFromHtpasswdAndOpenBsd() {
        String y = HASH.replaceFirst("^\\$2a\\$", "\\$2y\\$");
        assertThat(BcryptPasswords.matches("s3cret-pass", y)).isTrue();
    }

    @Test
    void refusesMalformedEntriesNamingThem() {
        assertThatThrownBy(() -> new ConfiguredUsers(Map.of("carol", "plaintext:admin")))
                .hasMessageContaining("toolsmith.ui.users.carol").hasMessageContaining("bcrypt");
        assertThatThrownBy(() -> new ConfiguredUsers(Map.of("dave", HASH + ":root")))
                .hasMessageContaining("toolsmith.ui.users.dave").hasMessageContaining("unknown role 'root'");
        assertThatThrownBy(() -> new ConfiguredUsers(Map.of("erin", HASH)))
                .hasMessageContaining("toolsmith.ui.users.erin");
        assertThatThrownBy(() -> new ConfiguredUsers(Map.of("bad name", HASH + ":admin")))
                .hasMessageContaining("user names");
    }
}
