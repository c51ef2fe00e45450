package dev.toolsmith.ui.security.oidc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DiscoveryDocumentCheckTest {

    private static final String COMPLETE = """
            {"issuer": "https://id.example.com", "subject_types_supported": ["public"],
             "response_types_supported": ["code"], "id_token_signing_alg_values_supported": ["RS256"],
             "authorization_endpoint": "https://id.example.com/authorize",
             "token_endpoint": "https://id.example.com/token", "jwks_uri": "https://id.example.com/jwks"}""";

    @Test
    void aCompleteDiscoveryDocumentIsAccepted() {
        assertThat(DiscoveryDocumentCheck.missingEndpoints(COMPLETE)).isEmpty();
    }

    @Test
    void aDiscoveryDocumentWithoutTheEndpointsOfASignInNamesThem() {
        String withoutEndpoints = COMPLETE.replace("\"authorization_endpoint\": \"https://id.example.com/authorize\",", "")
                .replace("\"token_endpoint\": \"https://id.example.com/token\", ", "\"token_endpoint\": \" \", ");

        assertThat(DiscoveryDocumentCheck.missingEndpoints(withoutEndpoints))
                .containsExactly("authorization_endpoint", "token_endpoint");
    }

    @Test
    void aDocumentThatIsNotJsonLacksEverything() {
        assertThat(DiscoveryDocumentCheck.missingEndpoints("<html>login</html>")).hasSize(1);
    }
}
