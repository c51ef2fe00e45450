package dev.toolsmith.sandbox.egress;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.Set;

/**
 * The egress rule that holds in every mode, including {@code allow-private-networks} (which local
 * development and {@code ./toolsmith up} turn on): wrapped-tool calls, health probes and source or
 * document fetches never reach a link-local or cloud metadata destination. Those hand out the
 * credentials of the machine Toolsmith runs on, and no API or document legitimately lives there.
 * Refused: IPv4 169.254.0.0/16 (169.254.169.254, ECS's 169.254.170.2), IPv6 fe80::/10, AWS's
 * fd00:ec2::254, Alibaba's 100.100.100.200, Oracle's 192.0.0.192, any of them hidden in an IPv6
 * address (IPv4-mapped, IPv4-compatible, NAT64, 6to4), every literal spelling of them
 * ({@link HostLiteral}) and the metadata services' host names. The one home of this rule: the sandboxed
 * executor and the document fetcher both check with it, on the URL's host and on every address it
 * resolves to when connecting.
 */
public final class EgressRule {

    /** The kind named in refusals. */
    public static final String KIND = "link-local/cloud metadata";

    private static final Set<String> METADATA_HOSTS = Set.of(
            "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal",
            "metadata.azure.com", "metadata.azure.internal", "metadata.packet.net", "metadata.platformequinix.com",
            "metadata.tencentyun.com");
    private static final Set<String> METADATA_ADDRESSES = Set.of("100.100.100.200", "192.0.0.192");

    private EgressRule() {
    }

    /**
     * Why the host of a URL, as written, is refused in every mode: a metadata host name or a literal
     * link-local/metadata address in any spelling. Names are not resolved here ({@link #refusal(String,
     * InetAddress)} checks what they resolve to).
     */
    public static Optional<String> refusal(String host) {
        String name = HostLiteral.normalise(host);
        if (METADATA_HOSTS.contains(name)) {
            return Optional.of("destination " + name + " is a cloud metadata host name, refused in every mode");
        }
        return HostLiteral.parse(name).flatMap(address -> refusal(name, address));
    }

    /** Why {@code address}, which {@code host} resolved to, is refused in every mode. */
    public static Optional<String> refusal(String host, InetAddress address) {
        if (!isLinkLocalOrMetadata(address)) {
            return Optional.empty();
        }
        String name = HostLiteral.normalise(host);
        String text = text(address);
        String destination = name.equals(text) || HostLiteral.parse(name).isPresent()
                ? (name.equals(text) ? text : name + " (" + text + ")")
                : name + " resolves to " + text + " which";
        return Optional.of("destination " + destination + " is a " + KIND + " address, refused in every mode");
    }

    /** True for link-local and cloud metadata addresses, also when an IPv6 address carries one. */
    public static boolean isLinkLocalOrMetadata(InetAddress address) {
        if (address.isLinkLocalAddress() || METADATA_ADDRESSES.contains(text(address))) {
            return true;
        }
        if (address instanceof Inet6Address) {
            byte[] b = address.getAddress();
            if (isAwsMetadataV6(b)) {
                return true;
            }
            return embeddedIpv4(b).map(EgressRule::isLinkLocalOrMetadata).orElse(false);
        }
        return false;
    }

    /** fd00:ec2::254, the IPv6 address of the EC2 instance metadata service. */
    private static boolean isAwsMetadataV6(byte[] b) {
        byte[] aws = {(byte) 0xfd, 0, 0x0e, (byte) 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
        return java.util.Arrays.equals(b, aws);
    }

    /**
     * The IPv4 address an IPv6 one carries: IPv4-mapped (::ffff:a.b.c.d, which Java usually turns into
     * IPv4 already), IPv4-compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
     */
    public static Optional<InetAddress> embeddedIpv4(byte[] b) {
        if (b.length != 16) {
            return Optional.empty();
        }
        boolean zeroTen = true;
        for (int i = 0; i < 10; i++) {
            zeroTen &= b[i] == 0;
        }
        boolean mapped = zeroTen && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff;
        boolean compatible = zeroTen && b[10] == 0 && b[11] == 0
                && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && (b[15] == 0 || b[15] == 1)); // not :: or ::1
        boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff
                && (b[3] & 0xff) == 0x9b;
        for (int i = 4; i < 12 && nat64; i++) {
            nat64 = b[i] == 0;
        }
        try {
            if (mapped || compatible || nat64) {
                return Optional.of(Inet4Address.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
            }
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
                return Optional.of(Inet4Address.getByAddress(new byte[] {b[2], b[3], b[4], b[5]}));
            }
        } catch (UnknownHostException impossible) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    private static String text(InetAddress address) {
        String text = address.getHostAddress();
        int zone = text.indexOf('%');
        return zone >= 0 ? text.substring(0, zone) : text;
    }
}
