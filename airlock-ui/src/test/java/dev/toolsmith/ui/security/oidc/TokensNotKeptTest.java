package dev.toolsmith.ui.security.oidc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarkus.oidc.AuthorizationCodeTokens;
import io.quarkus.security.AuthenticationFailedException;
import org.junit.jupiter.api.Test;

class TokensNotKeptTest {

    private final TokensNotKept manager = new TokensNotKept();

    @Test
    void aTokenStateIsARandomIdThatHoldsNoToken() {
        AuthorizationCodeTokens tokens = new AuthorizationCodeTokens("the-id-token", "the-access-token", "the-refresh-token");
        String first = manager.createTokenState(null, null, tokens, null).await().indefinitely();
        String second = manager.createTokenState(null, null, tokens, null).await().indefinitely();

        assertThat(first).isNotEqualTo(second).hasSizeGreaterThanOrEqualTo(22)
                .doesNotContain("the-id-token", "the-access-token", "the-refresh-token");
    }

    @Test
    void noTokenStateEverRestoresASession() {
        String issued = manager.createTokenState(null, null,
                new AuthorizationCodeTokens("the-id-token", "the-access-token", null), null).await().indefinitely();

        assertThatThrownBy(() -> manager.getTokens(null, null, issued, null).await().indefinitely())
                .isInstanceOf(AuthenticationFailedException.class);
    }
}
