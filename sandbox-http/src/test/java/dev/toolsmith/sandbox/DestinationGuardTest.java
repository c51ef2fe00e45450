package dev.toolsmith.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class DestinationGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1",
            "0.0.0.0", "::1", "fd00:ec2::254", "fe80::1", "::ffff:127.0.0.1", "64:ff9b::a9fe:a9fe", "224.0.0.1"})
    void nonPublicAddressesAreRecognised(String address) throws Exception {
        assertThat(DestinationGuard.nonPublicKind(InetAddress.getByName(address))).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"})
    void publicAddressesPass(String address) throws Exception {
        assertThat(DestinationGuard.nonPublicKind(InetAddress.getByName(address))).isNull();
    }

    @Test
    void theMetadataEndpointIsRefusedEvenWhenItIsTheApprovedHost() {
        DestinationGuard.Refusal refusal = DestinationGuard.check(URI.create("http://169.254.169.254/latest/meta-data"),
                Set.of("169.254.169.254"), false);

        assertThat(refusal.reason()).contains("link-local");
    }

    @Test
    void onlyApprovedHostsPassAndOnlyOverHttp() {
        assertThat(DestinationGuard.check(URI.create("http://evil.example/x"), Set.of("api.example.com"), true).reason())
                .isEqualTo("evil.example is not an approved host of this tool (approved: api.example.com)");
        assertThat(DestinationGuard.check(URI.create("file:///etc/passwd"), Set.of(""), true).reason())
                .contains("only http and https");
        assertThat(DestinationGuard.check(URI.create("http://127.0.0.1:1/x"), Set.of("127.0.0.1"), true)).isNull();
    }
}
