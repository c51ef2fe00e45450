package dev.toolsmith.e2e.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small but real foreign-exchange API on localhost: the "external API" of the demo and the
 * end-to-end tests. It serves its own OpenAPI document at {@code /openapi.yaml} (with its address as the
 * server URL), converts amounts at fixed reference rates, and can be told to fail, as a real API
 * sometimes does, to exercise health checks.
 */
public final class FxRatesApi implements AutoCloseable {

    /** Units of each currency per euro. */
    private static final Map<String, BigDecimal> PER_EURO = new LinkedHashMap<>();

    static {
        PER_EURO.put("EUR", new BigDecimal("1"));
        PER_EURO.put("USD", new BigDecimal("1.08"));
        PER_EURO.put("GBP", new BigDecimal("0.85"));
        PER_EURO.put("CHF", new BigDecimal("0.95"));
        PER_EURO.put("JPY", new BigDecimal("162"));
    }

    private static final Map<String, String> NAMES = Map.of("EUR", "Euro", "USD", "US dollar", "GBP", "Pound sterling",
            "CHF", "Swiss franc", "JPY", "Yen");

    private final HttpServer server;
    private final AtomicBoolean failing = new AtomicBoolean();
    private final AtomicInteger conversions = new AtomicInteger();
    private final Map<String, AtomicInteger> conversionsByAmount = new java.util.concurrent.ConcurrentHashMap<>();

    private final String provider;
    private final String operationPrefix;
    private final String host;

    /** The demo's API, provider {@code fx-rates}: its tools are {@code fx-rates:<operation>}. */
    public FxRatesApi() {
        this("fx-rates", "");
    }

    /**
     * An API whose tools live in namespace {@code provider} with verbs that start with
     * {@code operationPrefix} (e.g. {@code healthIt_} → {@code HEALTH_IT_LIST_CURRENCIES}). Tests that
     * approve tools of their own use both, so one test's tool neither rebinds another's tool id nor
     * collides with its verb (a verb is served by one plugin).
     */
    public FxRatesApi(String provider, String operationPrefix) {
        this(provider, operationPrefix, "127.0.0.1");
    }

    /**
     * The demo's API listening on {@code host} (an address of this machine), which is also the address in its URLs:
     * a platform in containers reaches the machine through the container network's gateway, not through loopback
     * ({@code ./toolsmith compose-test}).
     */
    public FxRatesApi(String provider, String operationPrefix, String host) {
        this.provider = provider;
        this.operationPrefix = operationPrefix;
        this.host = host;
        try {
            server = HttpServer.create(new InetSocketAddress(host, 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a local port for the FX API", e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/openapi.yaml", this::document);
        server.createContext("/currencies", this::currencies);
        server.createContext("/convert", this::convert);
        server.createContext("/alerts", this::alert);
        server.start();
    }

    public String baseUrl() {
        return "http://" + host + ":" + server.getAddress().getPort();
    }

    public String documentUrl() {
        return baseUrl() + "/openapi.yaml";
    }

    /** From now on every API call answers 503, until {@code setFailing(false)}. */
    public void setFailing(boolean fail) {
        failing.set(fail);
    }

    /** How many conversions were served: proves a step really reached the API. */
    public int conversions() {
        return conversions.get();
    }

    /** The amounts that were converted more than once: a step executed twice shows up here. */
    public Map<String, Integer> repeatedAmounts() {
        Map<String, Integer> repeated = new java.util.TreeMap<>();
        conversionsByAmount.forEach((amount, times) -> {
            if (times.get() > 1) {
                repeated.put(amount, times.get());
            }
        });
        return repeated;
    }

    private void document(HttpExchange exchange) throws IOException {
        try (InputStream in = FxRatesApi.class.getResourceAsStream("/demo/fx-rates.openapi.yaml")) {
            String yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${SERVER_URL}", baseUrl())
                    .replace("${PROVIDER}", provider)
                    .replace("operationId: ", "operationId: " + operationPrefix);
            send(exchange, 200, "application/yaml", yaml);
        }
    }

    private void currencies(HttpExchange exchange) throws IOException {
        if (refuseWhenFailing(exchange)) {
            return;
        }
        StringBuilder json = new StringBuilder("{\"currencies\":[");
        PER_EURO.keySet().forEach(code -> json.append(json.charAt(json.length() - 1) == '[' ? "" : ",")
                .append("{\"code\":\"").append(code).append("\",\"name\":\"").append(NAMES.get(code)).append("\"}"));
        send(exchange, 200, "application/json", json.append("]}").toString());
    }

    private void convert(HttpExchange exchange) throws IOException {
        if (refuseWhenFailing(exchange)) {
            return;
        }
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        String from = query.getOrDefault("from", "");
        String to = query.getOrDefault("to", "");
        BigDecimal amount;
        try {
            amount = new BigDecimal(query.getOrDefault("amount", ""));
        } catch (NumberFormatException e) {
            send(exchange, 400, "application/json", "{\"error\":\"amount must be a number\"}");
            return;
        }
        if (!PER_EURO.containsKey(from) || !PER_EURO.containsKey(to)) {
            send(exchange, 400, "application/json", "{\"error\":\"unknown currency\"}");
            return;
        }
        BigDecimal rate = PER_EURO.get(to).divide(PER_EURO.get(from), 6, RoundingMode.HALF_EVEN).stripTrailingZeros();
        BigDecimal result = amount.multiply(rate).setScale(2, RoundingMode.HALF_EVEN);
        conversions.incrementAndGet();
        conversionsByAmount.computeIfAbsent(amount.stripTrailingZeros().toPlainString(), a -> new AtomicInteger())
                .incrementAndGet();
        send(exchange, 200, "application/json", String.format(
                "{\"from\":\"%s\",\"to\":\"%s\",\"amount\":%s,\"rate\":%s,\"result\":%s}", from, to,
                amount.toPlainString(), rate.toPlainString(), result.toPlainString()));
    }

    private void alert(HttpExchange exchange) throws IOException {
        if (refuseWhenFailing(exchange)) {
            return;
        }
        if (!"POST".equals(exchange.getRequestMethod())) {
            send(exchange, 405, "application/json", "{\"error\":\"POST only\"}");
            return;
        }
        exchange.getRequestBody().readAllBytes();
        send(exchange, 201, "application/json", "{\"id\":\"alert-" + System.nanoTime() + "\"}");
    }

    private boolean refuseWhenFailing(HttpExchange exchange) throws IOException {
        if (failing.get()) {
            send(exchange, 503, "application/json", "{\"error\":\"service unavailable\"}");
            return true;
        }
        return false;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> values = new HashMap<>();
        if (raw == null) {
            return values;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                values.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return values;
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        exchange.sendResponseHeaders(status, bytes.length);
        try (var out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
