package dev.toolsmith.sandbox.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.Optional;

/**
 * What kind of non-public network an address belongs to: the addresses that {@code allow-private-networks}
 * opens (loopback, private, unique-local, carrier-grade NAT, ...) and the link-local/metadata ones that stay
 * refused in every mode ({@link EgressRule}). The executor refuses them in production; the review screen
 * warns about a server on one of them.
 */
public final class NetworkKind {

    private NetworkKind() {
    }

    /** The kind of a non-public address ("loopback", "private", ...), or empty for a public one. */
    public static Optional<String> nonPublic(InetAddress address) {
        if (EgressRule.isLinkLocalOrMetadata(address)) {
            return Optional.of(EgressRule.KIND);
        }
        if (address.isLoopbackAddress()) {
            return Optional.of("loopback");
        }
        if (address.isAnyLocalAddress()) {
            return Optional.of("unspecified");
        }
        if (address.isSiteLocalAddress()) {
            return Optional.of("private");
        }
        if (address.isMulticastAddress()) {
            return Optional.of("multicast");
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            if (first == 100 && second >= 64 && second <= 127) {
                return Optional.of("carrier-grade NAT");
            }
            if (first == 0 || first >= 240) {
                return Optional.of("reserved");
            }
            if (first == 198 && (second == 18 || second == 19)) {
                return Optional.of("benchmarking");
            }
        } else if (address instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) {
                return Optional.of("unique-local");
            }
            Optional<InetAddress> v4 = EgressRule.embeddedIpv4(b);
            if (v4.isPresent()) {
                return nonPublic(v4.get());
            }
        }
        return Optional.empty();
    }
}
