package dev.toolsmith.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolsmith.openapi.fetch.AddressPolicy;
import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressPolicyTest {

    private final AddressPolicy production = AddressPolicy.publicOnly();
    private final AddressPolicy development = new AddressPolicy(true);

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.10.10",
            "100.64.0.1", "100.127.255.1", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1",
            "fc00::1", "fd12:3456::1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "2002:c0a8:101::1", "ff02::1"})
    void nonPublicAddressesAreRefusedInProduction(String address) throws Exception {
        assertThat(production.whyRefused(InetAddress.getByName(address))).as(address).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111"})
    void publicAddressesAreAllowed(String address) throws Exception {
        assertThat(production.whyRefused(InetAddress.getByName(address))).as(address).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"169.254.169.254", "fd00:ec2::254", "100.100.100.200"})
    void metadataAddressesAreRefusedEvenWhenPrivateNetworksAreAllowed(String address) throws Exception {
        assertThat(development.whyRefused(InetAddress.getByName(address))).as(address)
                .hasValueSatisfying(why -> assertThat(why).contains("metadata"));
        assertThat(development.whyRefused(InetAddress.getByName("10.0.0.1"))).isEmpty();
    }
}
