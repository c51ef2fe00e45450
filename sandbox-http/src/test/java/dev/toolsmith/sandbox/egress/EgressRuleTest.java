package dev.toolsmith.sandbox.egress;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every spelling of a link-local or cloud metadata destination is refused; ordinary hosts are not. */
class EgressRuleTest {

    @ParameterizedTest
    @ValueSource(strings = {"169.254.169.254", "169.254.170.2", "169.254.0.1", "[fe80::1]", "fe80::1%eth0", "febf::1",
            "[fd00:ec2::254]", "[::ffff:169.254.169.254]", "[::ffff:a9fe:a9fe]", "::a9fe:a9fe", "[64:ff9b::a9fe:a9fe]",
            "2002:a9fe:a9fe::1", "2852039166", "0xA9FEA9FE", "0xa9.0xfe.0xa9.0xfe", "0251.0376.0251.0376",
            "169.254.43518", "169.16689662", "169.254.169.254.", "100.100.100.200", "192.0.0.192",
            "metadata.google.internal", "METADATA.Google.Internal.", "metadata", "metadata.goog", "instance-data",
            "instance-data.ec2.internal"})
    void linkLocalAndMetadataDestinationsAreRefusedInEverySpelling(String host) {
        assertThat(EgressRule.refusal(host)).as(host)
                .hasValueSatisfying(why -> assertThat(why).contains("refused in every mode"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.0.0.1", "192.168.1.10", "localhost", "api.example.com", "8.8.8.8",
            "[2606:4700::1111]", "::1", "169.255.0.1", "169.253.255.255", "1.2.3.4.nip.io", "metadata.example.com",
            "2852039167x", "0x", "fec0::1"})
    void otherHostsAreLeftToTheModesRules(String host) {
        assertThat(EgressRule.refusal(host)).as(host).isEmpty();
    }

    @Test
    void theRefusalNamesTheDestinationAndWhy() {
        assertThat(EgressRule.refusal("169.254.169.254")).hasValue(
                "destination 169.254.169.254 is a link-local/cloud metadata address, refused in every mode");
        assertThat(EgressRule.refusal("0xA9FEA9FE")).hasValue(
                "destination 0xa9fea9fe (169.254.169.254) is a link-local/cloud metadata address, refused in every mode");
        assertThat(EgressRule.refusal("metadata.google.internal.")).hasValue(
                "destination metadata.google.internal is a cloud metadata host name, refused in every mode");
    }

    @Test
    void aNameThatResolvesToTheMetadataAddressIsRefusedByWhatItResolvesTo() throws Exception {
        assertThat(EgressRule.refusal("innocent.example", InetAddress.getByName("169.254.169.254"))).hasValue(
                "destination innocent.example resolves to 169.254.169.254 which is a link-local/cloud metadata "
                        + "address, refused in every mode");
        assertThat(EgressRule.refusal("innocent.example", InetAddress.getByName("fe80::1%1"))).isPresent();
        assertThat(EgressRule.refusal("innocent.example", InetAddress.getByName("10.0.0.1"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2852039166", "0xA9FEA9FE", "0251.0376.0251.0376", "169.254.43518", "0xa9.254.0251.0xfe",
            "169.254.169.254.", "[::ffff:169.254.169.254]"})
    void literalSpellingsReadAsTheAddressTheyName(String host) throws Exception {
        assertThat(HostLiteral.parse(host)).hasValue(InetAddress.getByName("169.254.169.254"));
    }

    @Test
    void theHostOfAUrlJavaCannotParseIsTakenFromItsAuthority() {
        assertThat(HostLiteral.of(URI.create("http://0251.0376.0251.0376/latest"))).isEqualTo("0251.0376.0251.0376");
        assertThat(HostLiteral.of(URI.create("http://user@169.254.169.254.:80/latest"))).isEqualTo("169.254.169.254.");
        assertThat(HostLiteral.of(URI.create("http://[::ffff:a9fe:a9fe]:8080/"))).isEqualTo("[::ffff:a9fe:a9fe]");
    }

    @Test
    void nonPublicKindsIncludeTheMetadataOnes() throws Exception {
        assertThat(NetworkKind.nonPublic(InetAddress.getByName("169.254.169.254"))).hasValue(EgressRule.KIND);
        assertThat(NetworkKind.nonPublic(InetAddress.getByName("127.0.0.1"))).hasValue("loopback");
        assertThat(NetworkKind.nonPublic(InetAddress.getByName("10.1.2.3"))).hasValue("private");
        assertThat(NetworkKind.nonPublic(InetAddress.getByName("fd12::1"))).hasValue("unique-local");
        assertThat(NetworkKind.nonPublic(InetAddress.getByName("93.184.216.34"))).isEmpty();
    }
}
