package dev.toolsmith.ui;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.Map;

/**
 * Stands in for the services behind the UI: one real WireMock HTTP server, with the librarian and the
 * capabilities manager under their own base paths (so the tests also prove base paths are kept), and
 * the engineer on a port nobody listens on (to prove an unreachable service is a clear 502).
 */
public class UpstreamServices implements QuarkusTestResourceLifecycleManager {

    static WireMockServer server;

    @Override
    public Map<String, String> start() {
        server = new WireMockServer(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"));
        server.start();
        String base = "http://127.0.0.1:" + server.port();
        return Map.of(
                "toolsmith.ui.services.librarian", base + "/librarian",
                "toolsmith.ui.services.capabilities", base + "/capabilities",
                "toolsmith.ui.services.engineer", "http://127.0.0.1:" + closedPort());
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop();
        }
    }
}
