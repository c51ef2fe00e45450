package dev.toolsmith.ui.security.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.ui.security.UiRole;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class OidcRoleMappingTest {

    private final OidcRoleMapping groups = new OidcRoleMapping("groups", Set.of("toolsmith-admins"), Set.of("toolsmith-viewers"));

    @Test
    void aListClaimMapsToTheStrongestRole() {
        assertThat(groups.roleOf(Map.of("groups", List.of("staff", "toolsmith-viewers")))).contains(UiRole.VIEWER);
        assertThat(groups.roleOf(Map.of("groups", List.of("toolsmith-viewers", "toolsmith-admins")))).contains(UiRole.ADMIN);
    }

    @Test
    void aStringClaimMayHoldSeveralValues() {
        assertThat(groups.roleOf(Map.of("groups", "toolsmith-admins"))).contains(UiRole.ADMIN);
        assertThat(groups.roleOf(Map.of("groups", "staff, toolsmith-viewers"))).contains(UiRole.VIEWER);
    }

    @Test
    void aDottedPathReachesANestedClaim() {
        var realmRoles = new OidcRoleMapping("realm_access.roles", Set.of("admin"), Set.of());
        assertThat(realmRoles.roleOf(Map.of("realm_access", Map.of("roles", List.of("admin"))))).contains(UiRole.ADMIN);
        assertThat(realmRoles.roleOf(Map.of("realm_access", "admin"))).isEmpty();
    }

    @Test
    void noMatchingValueOrNoClaimMeansNoRole() {
        assertThat(groups.roleOf(Map.of("groups", List.of("staff")))).isEmpty();
        assertThat(groups.roleOf(Map.of())).isEmpty();
        assertThat(groups.roleOf(Map.of("groups", 42))).isEmpty();
    }

    @Test
    void theSessionValueRoundTripsAndAPasswordUsersSessionIsNotOne() {
        var value = new OidcSessionValue("carol@example.com", UiRole.VIEWER);
        assertThat(OidcSessionValue.decode(value.encode())).contains(value);
        assertThat(OidcSessionValue.decode("admin")).isEmpty();
        assertThat(OidcSessionValue.decode("oidc:root:carol")).isEmpty();
        assertThat(OidcSessionValue.decode("oidc:admin:")).isEqualTo(Optional.empty());
    }
}
