package dev.toolsmith.ui.security.oidc;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.openid.connect.sdk.op.OIDCProviderMetadata;
import org.junit.jupiter.api.Test;

class OidcProviderTest {

    private static final String COMPLETE = """
            {"issuer": "https://id.example.com", "subject_types_supported": ["public"],
             "response_types_supported": ["code"], "id_token_signing_alg_values_supported": ["RS256"],
             "authorization_endpoint": "https://id.example.com/authorize",
             "token_endpoint": "https://id.example.com/token", "jwks_uri": "https://id.example.com/jwks"}""";

    @Test
    void aCompleteDiscoveryDocumentIsAccepted() throws Exception {
        assertThatCode(() -> OidcProvider.requireEndpoints(OIDCProviderMetadata.parse(COMPLETE))).doesNotThrowAnyException();
    }

    @Test
    void aDiscoveryDocumentWithoutTheEndpointsOfASignInIsA502NamingThem() throws Exception {
        String withoutEndpoints = COMPLETE.replace("\"authorization_endpoint\": \"https://id.example.com/authorize\",", "")
                .replace("\"token_endpoint\": \"https://id.example.com/token\", ", "");
        OIDCProviderMetadata metadata = OIDCProviderMetadata.parse(withoutEndpoints);

        assertThatThrownBy(() -> OidcProvider.requireEndpoints(metadata))
                .isInstanceOfSatisfying(OidcSignInException.class, e -> org.assertj.core.api.Assertions
                        .assertThat(e.status()).isEqualTo(502))
                .hasMessageContaining("authorization_endpoint").hasMessageContaining("token_endpoint")
                .hasMessageNotContaining("jwks_uri");
    }
}
