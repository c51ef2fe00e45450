package dev.toolsmith.sandbox.egress;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks the address a request is actually sent to, at the moment the JDK HTTP client opens the
 * connection, so a name that resolved to a public address when the URL was checked and to
 * 169.254.169.254 a moment later (DNS rebinding, or the JVM's DNS cache expiring in between) cannot
 * reach it. The JDK client offers no resolver hook before Java 18, but it asks its proxy selector for
 * every request, on the sending thread, just before connecting: for a plain-HTTP URL with a host name,
 * this selector resolves the name itself, checks every address, and hands the client the checked
 * address as the "proxy" to connect to. The client then connects to exactly that address and sends
 * the request line in absolute form ({@code GET http://host/path}), which HTTP/1.1 servers must accept
 * (RFC 9112, 3.2.2). HTTPS is not pinned: TLS already binds the connection to the name (a metadata
 * service or an internal host cannot present a certificate for the attacker's name), and a pinned
 * "proxy" would turn the request into a CONNECT. Literal addresses are checked and need no pinning.
 * A refused destination makes {@code HttpClient.send/sendAsync} throw {@link RefusedDestination}.
 */
public final class PinnedDestinations extends ProxySelector {

    /** Resolves a host name; tests substitute one that changes its answer. */
    @FunctionalInterface
    public interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /** Why a host's address may not be contacted, or empty. */
    @FunctionalInterface
    public interface AddressCheck {
        Optional<String> refusal(String host, InetAddress address);
    }

    /** Thrown, on the sending thread, when the destination is refused at connect time. */
    public static final class RefusedDestination extends RuntimeException {

        private final boolean unresolvable;

        public RefusedDestination(String reason, boolean unresolvable) {
            super(reason);
            this.unresolvable = unresolvable;
        }

        /** The name did not resolve: a connection problem rather than a policy refusal. */
        public boolean unresolvable() {
            return unresolvable;
        }
    }

    private static final List<Proxy> DIRECT = List.of(Proxy.NO_PROXY);

    private final Resolver resolver;
    private final AddressCheck check;

    public PinnedDestinations(AddressCheck check) {
        this(InetAddress::getAllByName, check);
    }

    public PinnedDestinations(Resolver resolver, AddressCheck check) {
        this.resolver = resolver;
        this.check = check;
    }

    @Override
    public List<Proxy> select(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        String host = HostLiteral.of(uri);
        Optional<InetAddress> literal = HostLiteral.parse(host);
        if (literal.isPresent()) {
            refuseIfNeeded(host, literal.get());
            return DIRECT;
        }
        if (!scheme.equals("http")) {
            return DIRECT;
        }
        String name = HostLiteral.normalise(host);
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(name);
        } catch (UnknownHostException e) {
            throw new RefusedDestination("cannot resolve host " + name, true);
        }
        if (addresses.length == 0) {
            throw new RefusedDestination("cannot resolve host " + name, true);
        }
        for (InetAddress address : addresses) {
            refuseIfNeeded(name, address);
        }
        int port = uri.getPort() > 0 ? uri.getPort() : 80;
        return List.of(new Proxy(Proxy.Type.HTTP, new InetSocketAddress(addresses[0], port)));
    }

    private void refuseIfNeeded(String host, InetAddress address) {
        Optional<String> refusal = check.refusal(host, address);
        if (refusal.isPresent()) {
            throw new RefusedDestination(refusal.get(), false);
        }
    }

    @Override
    public void connectFailed(URI uri, SocketAddress address, IOException failure) {
        // the client reports the failure to its caller; there is no other route to try
    }
}
