package dev.toolsmith.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.BodyEncoding;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.sandbox.egress.EgressRule;
import dev.toolsmith.sandbox.egress.HostLiteral;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a binding and (already schema-checked) inputs into one HTTP request: path template filled,
 * query, headers, cookies and body serialised per the binding, and the auth secret put where the
 * scheme says.
 */
final class RequestAssembler {

    /** Headers the HTTP client owns; a binding may not set them. */
    private static final Set<String> RESTRICTED_HEADERS = Set.of("connection", "content-length", "expect", "host",
            "upgrade", "transfer-encoding", "te", "trailer", "keep-alive");

    private final ObjectMapper mapper;

    RequestAssembler(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    PreparedRequest assemble(HttpBinding binding, Map<String, JsonNode> inputs, String secret)
            throws InvalidRequestException {
        if (binding.serverUrl() == null || binding.serverUrl().isBlank()) {
            throw new InvalidRequestException(FailureKind.INVALID_BINDING, "the binding has no server URL");
        }
        if (binding.method() == null || binding.method().isBlank()) {
            throw new InvalidRequestException(FailureKind.INVALID_BINDING, "the binding has no HTTP method");
        }
        String method = binding.method().toUpperCase(Locale.ROOT);
        String path = binding.pathTemplate() == null ? "" : binding.pathTemplate();
        // A fragment never goes on the wire (specs use "/#X-Amz-Target=..." only to tell operations apart), and
        // left in place it would swallow the query string that follows.
        int fragment = path.indexOf('#');
        if (fragment >= 0) {
            path = path.substring(0, fragment);
        }
        List<String> query = new ArrayList<>();
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        List<String> cookies = new ArrayList<>();
        ObjectNode jsonBody = null;
        List<String> formBody = null;
        JsonNode wholeBody = null;

        for (ParameterBinding parameter : binding.parameters()) {
            JsonNode value = inputs.get(parameter.name());
            String wire = parameter.wireName() == null ? parameter.name() : parameter.wireName();
            if (value == null || value.isNull() || value.isMissingNode()) {
                if (parameter.required()) {
                    throw new InvalidRequestException(FailureKind.INVALID_INPUT,
                            "input /" + parameter.name() + ": required " + describe(parameter) + " is missing");
                }
                continue;
            }
            switch (parameter.location()) {
                case PATH -> {
                    String token = "{" + wire + "}";
                    if (!path.contains(token)) {
                        throw new InvalidRequestException(FailureKind.INVALID_BINDING,
                                "path parameter '" + wire + "' has no " + token + " in " + path);
                    }
                    String text = ParameterSerializer.path(wire, value, parameter.style(), parameter.explode());
                    if (text.isEmpty()) {
                        throw new InvalidRequestException(FailureKind.INVALID_INPUT,
                                "input /" + parameter.name() + ": a path parameter may not be empty");
                    }
                    path = path.replace(token, text);
                }
                case QUERY -> query.addAll(ParameterSerializer.query(wire, value, parameter.style(), parameter.explode()));
                case HEADER -> {
                    if (RESTRICTED_HEADERS.contains(wire.toLowerCase(Locale.ROOT))) {
                        throw new InvalidRequestException(FailureKind.INVALID_BINDING,
                                "header '" + wire + "' is controlled by the HTTP client and cannot be bound to an input");
                    }
                    String text = ParameterSerializer.header(value, parameter.explode());
                    refuseLineBreaks(parameter.name(), text);
                    headers.add(Map.entry(wire, text));
                }
                case COOKIE -> {
                    String text = ParameterSerializer.cookie(wire, value, parameter.explode());
                    refuseLineBreaks(parameter.name(), text);
                    cookies.add(text);
                }
                case BODY -> {
                    if (binding.bodyEncoding() == BodyEncoding.FORM) {
                        if (formBody == null) {
                            formBody = new ArrayList<>();
                        }
                        formBody.addAll(ParameterSerializer.formField(wire, value));
                    } else {
                        if (jsonBody == null) {
                            jsonBody = mapper.createObjectNode();
                        }
                        jsonBody.set(wire, value);
                    }
                }
                case BODY_WHOLE -> wholeBody = value;
            }
        }
        if (path.matches(".*\\{[^}/]+}.*")) {
            throw new InvalidRequestException(FailureKind.INVALID_BINDING,
                    "path " + binding.pathTemplate() + " has a placeholder no parameter fills");
        }

        Redactor redactor = Redactor.of(secret);
        applyAuth(binding.auth(), secret, query, headers, cookies);
        if (!cookies.isEmpty()) {
            headers.add(Map.entry("Cookie", String.join("; ", cookies)));
        }

        byte[] body = null;
        if (wholeBody != null || jsonBody != null || formBody != null) {
            if (binding.bodyEncoding() == BodyEncoding.FORM) {
                List<String> fields = formBody == null ? new ArrayList<>() : formBody;
                if (wholeBody != null && wholeBody.isObject()) {
                    wholeBody.fields().forEachRemaining(e -> fields.addAll(ParameterSerializer.formField(e.getKey(), e.getValue())));
                } else if (wholeBody != null) {
                    throw new InvalidRequestException(FailureKind.INVALID_BINDING,
                            "a form body must be an object, but the whole-body input is " + wholeBody.getNodeType());
                }
                body = String.join("&", fields).getBytes(StandardCharsets.UTF_8);
                headers.add(Map.entry("Content-Type", "application/x-www-form-urlencoded"));
            } else {
                JsonNode json = wholeBody != null ? mergeWhole(wholeBody, jsonBody) : jsonBody;
                body = json.toString().getBytes(StandardCharsets.UTF_8);
                headers.add(Map.entry("Content-Type", "application/json"));
            }
        }
        if (headers.stream().noneMatch(h -> h.getKey().equalsIgnoreCase("Accept"))) {
            headers.add(Map.entry("Accept", "application/json, */*;q=0.5"));
        }
        URI uri = uri(binding.serverUrl(), path, query);
        return new PreparedRequest(method, uri, List.copyOf(headers), body, redactor);
    }

    private static JsonNode mergeWhole(JsonNode whole, ObjectNode properties) {
        if (properties == null) {
            return whole;
        }
        if (!whole.isObject()) {
            return whole; // a non-object body cannot carry extra properties; the binding's whole-body input wins
        }
        ObjectNode merged = ((ObjectNode) whole).deepCopy();
        merged.setAll(properties);
        return merged;
    }

    private void applyAuth(AuthBinding auth, String secret, List<String> query, List<Map.Entry<String, String>> headers,
            List<String> cookies) throws InvalidRequestException {
        if (auth == null || auth.scheme() == AuthBinding.Scheme.NONE) {
            return;
        }
        String name = auth.parameterName();
        switch (auth.scheme()) {
            case API_KEY_HEADER -> headers.add(Map.entry(requireName(name, "header"), secret));
            case API_KEY_QUERY -> query.add(ParameterSerializer.encode(requireName(name, "query parameter")) + "="
                    + ParameterSerializer.encode(secret));
            case API_KEY_COOKIE -> cookies.add(requireName(name, "cookie") + "=" + ParameterSerializer.encode(secret));
            case BEARER -> headers.add(Map.entry("Authorization", "Bearer " + secret));
            case BASIC -> headers.add(Map.entry("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8))));
            default -> throw new InvalidRequestException(FailureKind.INVALID_BINDING, "unknown auth scheme " + auth.scheme());
        }
        if (secret.indexOf('\r') >= 0 || secret.indexOf('\n') >= 0) {
            throw new InvalidRequestException(FailureKind.SECRET_UNAVAILABLE,
                    "secret '" + auth.secretName() + "' contains a line break and cannot be sent");
        }
    }

    private static String requireName(String name, String what) throws InvalidRequestException {
        if (name == null || name.isBlank()) {
            throw new InvalidRequestException(FailureKind.INVALID_BINDING, "the API key " + what + " has no name");
        }
        return name;
    }

    private static void refuseLineBreaks(String input, String text) throws InvalidRequestException {
        if (text.indexOf('\r') >= 0 || text.indexOf('\n') >= 0) {
            throw new InvalidRequestException(FailureKind.INVALID_INPUT,
                    "input /" + input + ": line breaks are not allowed in a header or cookie");
        }
    }

    private static String describe(ParameterBinding parameter) {
        return parameter.location().name().toLowerCase(Locale.ROOT).replace('_', ' ') + " parameter '"
                + (parameter.wireName() == null ? parameter.name() : parameter.wireName()) + "'";
    }

    private static URI uri(String serverUrl, String path, List<String> query) throws InvalidRequestException {
        String base = serverUrl.endsWith("/") ? serverUrl.substring(0, serverUrl.length() - 1) : serverUrl;
        String p = path.isEmpty() || path.startsWith("/") ? path : "/" + path;
        StringBuilder url = new StringBuilder(base.length() + p.length() + 64).append(base).append(p);
        if (!query.isEmpty()) {
            // a template may carry a fixed query of its own ("/?Action=List"): the inputs' query extends it
            url.append(url.indexOf("?") >= 0 ? '&' : '?').append(String.join("&", query));
        }
        try {
            URI uri = new URI(url.toString());
            // a metadata address spelt so that Java's URI parser finds no host is still named for what it is
            Optional<String> forbidden = EgressRule.refusal(HostLiteral.of(uri));
            if (forbidden.isPresent()) {
                throw new InvalidRequestException(FailureKind.DESTINATION_REFUSED, forbidden.get());
            }
            if (uri.getHost() == null || uri.getScheme() == null
                    || !(uri.getScheme().equalsIgnoreCase("http") || uri.getScheme().equalsIgnoreCase("https"))) {
                throw new InvalidRequestException(FailureKind.INVALID_BINDING,
                        "server URL " + serverUrl + " is not an absolute http(s) URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new InvalidRequestException(FailureKind.INVALID_BINDING, "the request URL is not valid: " + e.getReason());
        }
    }
}
