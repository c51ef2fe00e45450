package dev.toolsmith.librarian.airlock;

import com.sun.net.httpserver.HttpServer;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A 50 MB OpenAPI document, written into {@code target/} at test time (never committed) and streamed
 * from disk by a plain JDK HTTP server on loopback, so neither the test nor WireMock holds it in memory.
 */
final class LargeDocument {

    static final long SIZE = 50L * 1024 * 1024;
    private static final Path FILE = Path.of("target/hostile/fifty-megabytes.yaml").toAbsolutePath();

    private static HttpServer server;

    private LargeDocument() {
    }

    /** The URL of the document; written and served on first use. */
    static synchronized String url() {
        if (server == null) {
            write();
            server = serve();
        }
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/fifty-megabytes.yaml";
    }

    // A well-formed document that is simply too big: only its size can be the reason it is refused.
    private static void write() {
        try {
            if (Files.exists(FILE) && Files.size(FILE) >= SIZE) {
                return;
            }
            Files.createDirectories(FILE.getParent());
            try (BufferedWriter out = Files.newBufferedWriter(FILE)) {
                out.write("openapi: 3.0.3\ninfo: {title: Enormous, version: '1'}\n"
                        + "servers: [{url: 'https://enormous.example.com'}]\npaths:\n");
                long written = 0;
                for (int i = 0; written < SIZE; i++) {
                    String operation = "  /things/" + i + ":\n    get: {operationId: getThing" + i
                            + ", responses: {'200': {description: 'a thing, described at some length to fill the"
                            + " document'}}}\n";
                    out.write(operation);
                    written += operation.length();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpServer serve() {
        try {
            HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            http.createContext("/fifty-megabytes.yaml", exchange -> {
                exchange.sendResponseHeaders(200, Files.size(FILE));
                try (OutputStream body = exchange.getResponseBody()) {
                    Files.copy(FILE, body);
                } catch (IOException clientHungUp) {
                    // expected: the fetcher stops at its size limit
                }
            });
            http.start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> http.stop(0)));
            return http;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
