package dev.toolsmith.contracts.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.event.ContractCodec;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Versioned content hashes: RFC 8785 for new ones, and every stored {@code sha256:} hash still matching its content. */
class ContentHashTest {

    private final ObjectMapper json = new ContractCodec().mapper();

    @Test
    void oneNumberInAnyNotationAndAnyKeyOrderIsOneHash() throws IOException {
        JsonNode decimal = json.readTree("{\"type\":\"number\",\"minimum\":0.0,\"maximum\":1.0}");
        JsonNode integer = json.readTree("{\"maximum\":1,\"minimum\":0,\"type\":\"number\"}");
        JsonNode exponent = json.readTree("{\"minimum\":-0,\"type\":\"number\",\"maximum\":1E0}");

        assertThat(ContentHash.of(decimal)).startsWith("sha256-jcs:")
                .isEqualTo(ContentHash.of(integer)).isEqualTo(ContentHash.of(exponent));
        assertThat(ContentHash.of(manifest(decimal), json)).isEqualTo(ContentHash.of(manifest(integer), json));
        // what the first version got wrong, and why it was replaced
        assertThat(ContentHash.Version.SORTED_KEYS.hash(decimal)).isNotEqualTo(ContentHash.Version.SORTED_KEYS.hash(integer));
    }

    @Test
    void theCanonicalFormIsRfc8785s() throws IOException {
        // the example of RFC 8785, section 3.2.4, with its canonical text
        JsonNode input = json.readTree("{\"numbers\":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"
                + "\"string\":\"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\"literals\":[null,true,false]}");
        String canonical = "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                + "\"string\":\"\u20ac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}";
        assertThat(ContentHash.of(input)).isEqualTo("sha256-jcs:" + sha256(canonical));
    }

    @Test
    void aStoredFirstVersionHashMatchesItsManifestAndNothingElse() throws IOException {
        JsonNode fixture = fixture();
        ToolManifest stored = json.treeToValue(fixture.path("manifest"), ToolManifest.class);
        assertThat(stored.contentHash()).startsWith("sha256:");

        assertThat(ContentHash.matches(stored.contentHash(), stored, json)).isTrue();
        assertThat(ContentHash.matches(stored.contentHash(), stored.withVersion(7, "sha256:whatever"), json)).isTrue();
        assertThat(ContentHash.matches(stored.contentHash(), describedAs(stored, "Converts money"), json)).isFalse();
        // new hashes are of the current version, and match too
        String now = ContentHash.of(stored, json);
        assertThat(now).startsWith("sha256-jcs:").isNotEqualTo(stored.contentHash());
        assertThat(ContentHash.matches(now, stored, json)).isTrue();
    }

    @Test
    void aHashOfAnotherManifestOrOfAnUnknownVersionNeverMatches() throws IOException {
        ToolManifest stored = json.treeToValue(fixture().path("manifest"), ToolManifest.class);
        ToolManifest other = describedAs(stored, "Converts money");
        String otherHash = ContentHash.of(other, json);
        String hex = otherHash.substring(otherHash.indexOf(':') + 1);

        assertThat(ContentHash.matches(otherHash, stored, json)).isFalse();
        assertThat(ContentHash.matches(otherHash, other, json)).isTrue();
        // the right digits under another version's name, an unknown name, no name
        assertThat(ContentHash.matches("sha256:" + hex, other, json)).isFalse();
        assertThat(ContentHash.matches("sha512:" + hex, other, json)).isFalse();
        assertThat(ContentHash.matches(hex, other, json)).isFalse();
        assertThat(ContentHash.matches(null, other, json)).isFalse();
        assertThat(ContentHash.Version.of("sha512:" + hex)).isEmpty();
    }

    @Test
    void aNulIsEscapedButALoneSurrogateOrAnEndlessNumberIsNamedByItsField() {
        ObjectNode withNul = json.createObjectNode().put("description", "a\u0000b");
        assertThat(ContentHash.of(withNul)).isNotEqualTo(ContentHash.of(json.createObjectNode().put("description", "ab")));

        for (String lone : new String[] {"\ud800", "x\udc00", "\udc00\ud800", "end\ud83d"}) {
            ObjectNode tree = json.createObjectNode();
            tree.putObject("inputSchema").putObject("properties").putObject("a/b").put("description", lone);
            assertThatThrownBy(() -> ContentHash.of(tree)).isInstanceOf(UnhashableContent.class)
                    .hasMessageContaining("field /inputSchema/properties/a~1b/description: a string holds a lone UTF-16"
                            + " surrogate")
                    .satisfies(e -> assertThat(((UnhashableContent) e).pointer())
                            .isEqualTo("/inputSchema/properties/a~1b/description"));
        }
        ObjectNode loneKey = json.createObjectNode();
        loneKey.putArray("tags").addObject().put("k\ud800", 1);
        assertThatThrownBy(() -> ContentHash.of(loneKey)).isInstanceOf(UnhashableContent.class)
                .hasMessageContaining("field /tags/0/k\\ud800: a field name holds a lone UTF-16 surrogate (\\ud800)");
        ObjectNode endless = json.createObjectNode().put("maximum", new BigDecimal("1E+400"));
        assertThatThrownBy(() -> ContentHash.of(endless)).isInstanceOf(UnhashableContent.class)
                .hasMessageContaining("field /maximum: the number 1E+400 is beyond what a double holds");
        // a surrogate pair is text like any other
        assertThat(ContentHash.of(json.createObjectNode().put("description", "\ud83d\ude00"))).startsWith("sha256-jcs:");
    }

    private ToolManifest manifest(JsonNode amountSchema) {
        ObjectNode input = json.createObjectNode().put("type", "object");
        input.putObject("properties").set("amount", amountSchema);
        return new ToolManifest("fx.convert", "FX_CONVERT", "Convert", "Converts an amount", ToolSourceType.OPENAPI,
                "finance", "fx", java.util.List.of(), input, json.createObjectNode().put("type", "object"),
                Risk.READ_ONLY, null, null, 1, null);
    }

    private static ToolManifest describedAs(ToolManifest m, String description) {
        return new ToolManifest(m.id(), m.verb(), m.name(), description, m.source(), m.namespace(), m.domain(),
                m.tags(), m.inputSchema(), m.outputSchema(), m.risk(), m.binding(), m.healthProbe(), m.version(),
                m.contentHash());
    }

    private JsonNode fixture() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/fixtures/v1-approval.json")) {
            return json.readTree(in);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
