package dev.toolsmith.openapi.fetch;

import dev.toolsmith.sandbox.egress.EgressRule;
import dev.toolsmith.sandbox.egress.HostLiteral;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides which hosts Toolsmith may fetch from. Checked after DNS resolution, on every address a name
 * resolves to and on every redirect hop, so a public name pointing at an internal address is refused.
 * Loopback, private (RFC 1918, IPv6 ULA), link-local, CGNAT, multicast, unspecified and reserved
 * addresses are refused unless {@code allowPrivateNetworks} (tests, local development). Link-local and
 * cloud metadata destinations are refused always, in every spelling ({@link EgressRule}, the rule the
 * sandboxed executor applies too): no legitimate tool source lives there, and they hand out credentials.
 */
public final class AddressPolicy {

    private final boolean allowPrivateNetworks;
    private final Set<String> exemptAddresses;

    public AddressPolicy(boolean allowPrivateNetworks) {
        this(allowPrivateNetworks, Set.of());
    }

    /**
     * @param exemptAddresses literal addresses allowed although non-public (an operator's internal API
     *     gateway), without opening every private network; metadata addresses stay refused
     */
    public AddressPolicy(boolean allowPrivateNetworks, Set<String> exemptAddresses) {
        this.allowPrivateNetworks = allowPrivateNetworks;
        this.exemptAddresses = Set.copyOf(exemptAddresses);
    }

    /** The policy for production: public internet only. */
    public static AddressPolicy publicOnly() {
        return new AddressPolicy(false);
    }

    public boolean allowsPrivateNetworks() {
        return allowPrivateNetworks;
    }

    /**
     * Resolves {@code host} and returns its addresses if every one of them may be contacted; otherwise
     * throws naming the offending address and why.
     */
    public List<InetAddress> resolveAndCheck(String host) throws FetchException {
        Optional<String> everyMode = EgressRule.refusal(host);
        if (everyMode.isPresent()) {
            throw new FetchException(FetchException.Reason.BLOCKED_ADDRESS, everyMode.get());
        }
        String name = HostLiteral.normalise(host);
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(name);
        } catch (UnknownHostException e) {
            throw new FetchException(FetchException.Reason.UNREACHABLE, "host " + host + " does not resolve (unknown host)");
        }
        for (InetAddress address : addresses) {
            Optional<String> metadata = EgressRule.refusal(name, address);
            if (metadata.isPresent()) {
                throw new FetchException(FetchException.Reason.BLOCKED_ADDRESS, metadata.get());
            }
            Optional<String> why = whyRefused(address);
            if (why.isPresent()) {
                throw new FetchException(FetchException.Reason.BLOCKED_ADDRESS, "host " + host + " resolves to "
                        + address.getHostAddress() + ", " + why.get() + "; fetching from it is not allowed"
                        + (allowPrivateNetworks ? "" : " (set allow-private-networks only for local development)"));
            }
        }
        return List.of(addresses);
    }

    /**
     * Why this policy refuses {@code address}, which {@code host} resolved to, as a full sentence naming
     * both; empty when it may be contacted. The check the fetcher's client runs when it connects.
     */
    public Optional<String> refusal(String host, InetAddress address) {
        Optional<String> metadata = EgressRule.refusal(host, address);
        if (metadata.isPresent()) {
            return metadata;
        }
        return whyRefused(address).map(why -> "host " + host + " resolves to " + address.getHostAddress() + ", " + why
                + "; fetching from it is not allowed");
    }

    /** Why this policy refuses {@code address}, or empty when it may be contacted. */
    public Optional<String> whyRefused(InetAddress address) {
        Optional<String> metadata = metadata(address);
        if (metadata.isPresent() || allowPrivateNetworks || exemptAddresses.contains(address.getHostAddress())) {
            return metadata;
        }
        return classify(address);
    }

    private static Optional<String> metadata(InetAddress address) {
        return EgressRule.isLinkLocalOrMetadata(address)
                ? Optional.of("a " + EgressRule.KIND + " address, refused in every mode") : Optional.empty();
    }

    /** The category of a non-public address, or empty for a public one. */
    static Optional<String> classify(InetAddress address) {
        if (address instanceof Inet6Address v6) {
            byte[] b = v6.getAddress();
            Optional<InetAddress> embedded = embeddedIpv4(b);
            if (embedded.isPresent()) {
                return classify(embedded.get()).map(why -> why + " (embedded in IPv6 " + address.getHostAddress() + ")");
            }
            if (v6.isAnyLocalAddress()) {
                return Optional.of("the unspecified address");
            }
            if (v6.isLoopbackAddress()) {
                return Optional.of("a loopback address");
            }
            if (v6.isLinkLocalAddress()) {
                return Optional.of("a link-local address");
            }
            if (v6.isSiteLocalAddress()) {
                return Optional.of("a site-local address");
            }
            if (v6.isMulticastAddress()) {
                return Optional.of("a multicast address");
            }
            if ((b[0] & 0xfe) == 0xfc) {
                return Optional.of("a private (unique local, fc00::/7) address");
            }
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
                return Optional.of("a documentation address (2001:db8::/32)");
            }
            return Optional.empty();
        }
        byte[] b = address.getAddress();
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (address.isAnyLocalAddress() || first == 0) {
            return Optional.of("an unspecified ('this network', 0.0.0.0/8) address");
        }
        if (address.isLoopbackAddress()) {
            return Optional.of("a loopback address");
        }
        if (address.isSiteLocalAddress()) {
            return Optional.of("a private (RFC 1918) address");
        }
        if (address.isLinkLocalAddress()) {
            return Optional.of("a link-local address");
        }
        if (first == 100 && second >= 64 && second <= 127) {
            return Optional.of("a carrier-grade NAT (100.64.0.0/10) address");
        }
        if (address.isMulticastAddress()) {
            return Optional.of("a multicast address");
        }
        if (first >= 240) {
            return Optional.of("a reserved or broadcast address");
        }
        if (first == 192 && second == 0 && (b[2] & 0xff) == 0) {
            return Optional.of("an IETF protocol assignment (192.0.0.0/24) address");
        }
        if (first == 198 && (second == 18 || second == 19)) {
            return Optional.of("a benchmarking (198.18.0.0/15) address");
        }
        return Optional.empty();
    }

    /** IPv4-compatible, NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses carry an IPv4 address. */
    private static Optional<InetAddress> embeddedIpv4(byte[] b) {
        try {
            boolean zeroPrefix = true;
            for (int i = 0; i < 12; i++) {
                zeroPrefix &= b[i] == 0;
            }
            if (zeroPrefix && !(b[12] == 0 && b[13] == 0 && b[14] == 0 && (b[15] == 0 || b[15] == 1))) {
                return Optional.of(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
            }
            boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b;
            for (int i = 4; i < 12 && nat64; i++) {
                nat64 = b[i] == 0;
            }
            if (nat64) {
                return Optional.of(InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]}));
            }
            if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
                return Optional.of(InetAddress.getByAddress(new byte[] {b[2], b[3], b[4], b[5]}));
            }
            return Optional.empty();
        } catch (UnknownHostException impossible) {
            return Optional.empty();
        }
    }
}
