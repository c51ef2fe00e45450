package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.http.Cookie;
import com.github.tomakehurst.wiremock.http.QueryParameter;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Compares the request the stub received with the request a case expects; lists every difference. */
final class ReceivedRequestCheck {

    /** Numbers compare by value: 1, 1.0 and 1E0 are the same JSON number on the wire. */
    static final Comparator<JsonNode> NUMERIC = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private final ObjectMapper mapper;

    ReceivedRequestCheck(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** The differences between {@code received} (under {@code basePath}) and {@code expected}; empty when they match. */
    List<String> differences(ExpectedRequest expected, LoggedRequest received, String basePath) {
        List<String> problems = new ArrayList<>();
        if (!expected.method().equalsIgnoreCase(received.getMethod().getName())) {
            problems.add("method " + received.getMethod().getName() + ", expected " + expected.method());
        }
        String url = received.getUrl();
        String rawPath = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
        if (!rawPath.startsWith(basePath)) {
            problems.add("path " + rawPath + " is outside the server's base path " + basePath);
        } else {
            List<String> segments = segments(rawPath.substring(basePath.length()));
            if (!segments.equals(expected.pathSegments())) {
                problems.add("path /" + String.join("/", segments) + ", expected /" + String.join("/", expected.pathSegments()));
            }
        }
        Map<String, List<String>> query = new TreeMap<>();
        for (Map.Entry<String, QueryParameter> entry : received.getQueryParams().entrySet()) {
            query.put(entry.getKey(), entry.getValue().values());
        }
        if (!query.equals(new TreeMap<>(expected.query()))) {
            problems.add("query " + query + ", expected " + new TreeMap<>(expected.query()));
        }
        expected.headers().forEach((name, value) -> {
            String actual = received.containsHeader(name) ? received.getHeader(name) : null;
            if (!value.equals(actual)) {
                problems.add("header " + name + " was " + (actual == null ? "missing" : "'" + actual + "'") + ", expected '"
                        + value + "'");
            }
        });
        Map<String, Cookie> cookies = received.getCookies();
        expected.cookies().forEach((name, value) -> {
            Cookie cookie = cookies.get(name);
            String actual = cookie == null ? null : percentDecode(cookie.getValue());
            if (!value.equals(actual)) {
                problems.add("cookie " + name + " was " + (actual == null ? "missing" : "'" + actual + "'") + ", expected '"
                        + value + "'");
            }
        });
        String body = received.getBodyAsString();
        if (expected.jsonBody() != null) {
            try {
                JsonNode actual = mapper.readTree(body);
                if (actual == null || !expected.jsonBody().equals(NUMERIC, actual)) {
                    problems.add("JSON body " + abbreviate(body) + ", expected " + abbreviate(expected.jsonBody().toString()));
                }
            } catch (Exception e) {
                problems.add("body is not JSON: " + abbreviate(body));
            }
        } else if (expected.formBody() != null) {
            Map<String, List<String>> form = form(body);
            if (!form.equals(expected.formBody())) {
                problems.add("form body " + form + ", expected " + expected.formBody());
            }
        } else if (body != null && !body.isEmpty()) {
            problems.add("unexpected body " + abbreviate(body));
        }
        return problems;
    }

    private static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.isEmpty() && path.isEmpty()) {
            return segments;
        }
        for (String raw : trimmed.split("/", -1)) {
            segments.add(percentDecode(raw));
        }
        return segments;
    }

    private static Map<String, List<String>> form(String body) {
        Map<String, List<String>> fields = new LinkedHashMap<>();
        if (body == null || body.isEmpty()) {
            return fields;
        }
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            fields.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return fields;
    }

    /** Percent-decoding as in a URL path: '+' stays '+'. */
    static String percentDecode(String text) {
        if (text == null || text.indexOf('%') < 0) {
            return text;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length() && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2))) {
                out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                byte[] bytes = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(bytes, 0, bytes.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static boolean isHex(char c) {
        return Character.digit(c, 16) >= 0;
    }

    static String abbreviate(String text) {
        if (text == null) {
            return "(none)";
        }
        return text.length() <= 200 ? text : text.substring(0, 197) + "...";
    }
}
