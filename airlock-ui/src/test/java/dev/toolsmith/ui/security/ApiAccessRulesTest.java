package dev.toolsmith.ui.security;

import static dev.toolsmith.ui.security.ApiAccessRules.Decision.FORBIDDEN;
import static dev.toolsmith.ui.security.ApiAccessRules.Decision.PERMIT;
import static dev.toolsmith.ui.security.ApiAccessRules.Decision.UNAUTHENTICATED;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiAccessRulesTest {

    private static final Optional<UiRole> ADMIN = Optional.of(UiRole.ADMIN);
    private static final Optional<UiRole> VIEWER = Optional.of(UiRole.VIEWER);

    @Test
    void everyoneSignedInReadsOnlyAdminsChange() {
        assertThat(ApiAccessRules.decide(VIEWER, "GET", "/api/librarian/tools/pending")).isEqualTo(PERMIT);
        assertThat(ApiAccessRules.decide(ADMIN, "GET", "/api/librarian/tools/pending")).isEqualTo(PERMIT);
        for (String method : new String[] {"POST", "PUT", "PATCH", "DELETE"}) {
            assertThat(ApiAccessRules.decide(VIEWER, method, "/api/librarian/tools/sources/1")).isEqualTo(FORBIDDEN);
            assertThat(ApiAccessRules.decide(ADMIN, method, "/api/librarian/tools/sources/1")).isEqualTo(PERMIT);
        }
        assertThat(ApiAccessRules.decide(Optional.empty(), "GET", "/api/session")).isEqualTo(UNAUTHENTICATED);
    }

    @Test
    void viewersMayOnlyTouchTheirOwnSessionAndInbox() {
        assertThat(ApiAccessRules.decide(VIEWER, "POST", "/api/session/logout")).isEqualTo(PERMIT);
        assertThat(ApiAccessRules.decide(VIEWER, "POST", "/api/librarian/notifications/abc-1/read")).isEqualTo(PERMIT);
        assertThat(ApiAccessRules.decide(VIEWER, "POST", "/api/librarian/notifications/read-all")).isEqualTo(PERMIT);
        assertThat(ApiAccessRules.decide(VIEWER, "DELETE", "/api/librarian/notifications/abc-1")).isEqualTo(FORBIDDEN);
        assertThat(ApiAccessRules.decide(VIEWER, "POST", "/api/librarian/notifications/a/../../tools/pending/1/approve/read"))
                .isEqualTo(FORBIDDEN);
    }
}
