package dev.toolsmith.contracts.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Issue 19 "Lenient parsing": what is not one well-formed CloudEvents 1.0 document in UTF-8 is refused by name. */
class ContractCodecStrictnessTest {

    private static final String ENVELOPE = "{\"specversion\":\"%s\",\"id\":\"e-1\",\"type\":\"dev.toolsmith.notification\","
            + "\"source\":\"/test\",\"data\":{}}";

    private final ContractCodec codec = new ContractCodec(ContractCodec.defaultMapper(), new ContractValidator());

    @Test
    void anEnvelopeOfAnotherSpecVersionIsRefused() {
        assertThat(codec.openEnvelope(ENVELOPE.formatted("1.0").getBytes(StandardCharsets.UTF_8)).id()).isEqualTo("e-1");
        assertThatThrownBy(() -> codec.openEnvelope(ENVELOPE.formatted("0.3").getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ContractViolation.class)
                .hasMessage("envelope: field /specversion is '0.3'; only CloudEvents 1.0 is understood");
    }

    @Test
    void trailingGarbageAfterTheDocumentIsRefused() {
        String withGarbage = ENVELOPE.formatted("1.0") + " {\"more\":1}";
        assertThatThrownBy(() -> codec.openEnvelope(withGarbage.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ContractViolation.class).hasMessageStartingWith("not valid JSON: Trailing token");
        assertThatThrownBy(() -> codec.parse("{\"a\":1} x")).isInstanceOf(ContractViolation.class);
    }

    @Test
    void bytesThatAreNotUtf8AreRefusedNotReplaced() {
        byte[] latin1 = ENVELOPE.formatted("1.0").replace("e-1", "caf\u00e9").getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> codec.openEnvelope(latin1)).isInstanceOf(ContractViolation.class)
                .hasMessage("not valid UTF-8: an event is UTF-8 encoded JSON");
    }
}
