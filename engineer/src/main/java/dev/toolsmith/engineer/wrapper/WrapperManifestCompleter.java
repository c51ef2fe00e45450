package dev.toolsmith.engineer.wrapper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.airlock.ToolApproved;
import dev.toolsmith.contracts.airlock.UsagePolicy;
import dev.toolsmith.contracts.tool.AuthBinding;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ParameterBinding;
import dev.toolsmith.contracts.tool.ParameterLocation;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Completes and checks an approved tool's manifest into a wrapper plugin: the binding must be callable
 * (absolute http(s) server URL from the approved spec with no unfilled variables, a method, a path
 * whose placeholders all have path inputs, parameters that are inputs of the schema), its timeout and
 * response cap are set within the platform's ceilings, its auth secret must be one the approval's policy
 * provides, and the health probe gets the same server, auth and limits. Anything that cannot be fixed
 * mechanically fails with a reason that says what to change.
 */
public final class WrapperManifestCompleter {

    private static final Set<String> METHODS = Set.of("GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}/]+)}");

    private final WrapperSettings settings;
    private final ObjectMapper mapper;

    public WrapperManifestCompleter(WrapperSettings settings, ObjectMapper mapper) {
        this.settings = settings;
        this.mapper = mapper;
    }

    public GeneratedWrapper complete(ToolApproved approved) throws WrapperGenerationException {
        ToolManifest manifest = approved.manifest();
        if (manifest == null) {
            throw new WrapperGenerationException("the approval carries no manifest");
        }
        HttpBinding binding = manifest.binding();
        if (binding == null) {
            throw new WrapperGenerationException("tool " + manifest.id()
                    + " has no HTTP binding: only wrapped HTTP tools are built by the engineer");
        }
        UsagePolicy policy = approved.policy() == null ? UsagePolicy.unrestricted() : approved.policy();
        List<String> notes = new ArrayList<>();
        checkInputs(manifest, binding);
        AuthBinding auth = authFromPolicy(binding.auth(), policy, notes);
        HttpBinding completed = complete(binding, auth, notes, "the binding");

        HealthProbe probe = manifest.healthProbe();
        HealthProbe completedProbe;
        if (probe == null) {
            completedProbe = HealthProbe.unavailable("the spec suggested no health probe");
        } else if (!probe.available()) {
            completedProbe = probe;
        } else {
            HttpBinding probeBinding = probe.binding();
            if (!"GET".equalsIgnoreCase(probeBinding.method()) && !"HEAD".equalsIgnoreCase(probeBinding.method())) {
                completedProbe = HealthProbe.unavailable("the suggested probe " + probeBinding.method() + " "
                        + probeBinding.pathTemplate() + " is not read-only");
                notes.add(completedProbe.unavailableReason());
            } else {
                AuthBinding probeAuth = probeBinding.auth().scheme() == AuthBinding.Scheme.NONE ? probeBinding.auth()
                        : authFromPolicy(probeBinding.auth(), policy, notes);
                completedProbe = new HealthProbe(complete(probeBinding, probeAuth, notes, "the health probe"),
                        probe.inputs(), probe.intervalSeconds(), null);
            }
        }
        ToolManifest plugin = new ToolManifest(manifest.id(), manifest.verb(), manifest.name(), manifest.description(),
                manifest.source(), manifest.namespace(), manifest.domain(), manifest.tags(), manifest.inputSchema(),
                manifest.outputSchema(), manifest.risk(), completed, completedProbe, approved.version(), null);
        plugin = plugin.withVersion(approved.version(), ContentHash.of(plugin, mapper));
        return new GeneratedWrapper(plugin, policy, notes);
    }

    private HttpBinding complete(HttpBinding binding, AuthBinding auth, List<String> notes, String what)
            throws WrapperGenerationException {
        String method = binding.method() == null ? "" : binding.method().toUpperCase(Locale.ROOT);
        if (!METHODS.contains(method)) {
            throw new WrapperGenerationException(what + " has HTTP method '" + binding.method()
                    + "'; one of " + METHODS + " is needed");
        }
        String serverUrl = checkedServerUrl(binding.serverUrl(), what);
        checkPath(binding, what);
        int timeout = binding.timeoutMs() == HttpBinding.DEFAULT_TIMEOUT_MS ? settings.defaultTimeoutMs() : binding.timeoutMs();
        if (timeout > settings.maxTimeoutMs()) {
            notes.add(what + ": timeout " + timeout + " ms lowered to the ceiling of " + settings.maxTimeoutMs() + " ms");
            timeout = settings.maxTimeoutMs();
        }
        long cap = binding.maxResponseBytes() == HttpBinding.DEFAULT_MAX_RESPONSE_BYTES ? settings.defaultMaxResponseBytes()
                : binding.maxResponseBytes();
        if (cap > settings.maxResponseBytesCeiling()) {
            notes.add(what + ": response cap " + cap + " bytes lowered to the ceiling of "
                    + settings.maxResponseBytesCeiling());
            cap = settings.maxResponseBytesCeiling();
        }
        return new HttpBinding(method, serverUrl, binding.pathTemplate(), binding.parameters(), binding.bodyEncoding(),
                auth, timeout, cap);
    }

    private static String checkedServerUrl(String serverUrl, String what) throws WrapperGenerationException {
        if (serverUrl == null || serverUrl.isBlank()) {
            throw new WrapperGenerationException(what + " has no server URL: the spec must declare an absolute server URL");
        }
        if (serverUrl.contains("{")) {
            throw new WrapperGenerationException(what + "'s server URL " + serverUrl
                    + " still has variables: give them defaults in the spec's servers");
        }
        try {
            URI uri = new URI(serverUrl);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                throw new WrapperGenerationException(what + "'s server URL " + serverUrl
                        + " is not an absolute http(s) URL with a host");
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new WrapperGenerationException(what + "'s server URL " + serverUrl
                        + " has a query or fragment; a server URL is scheme, host and base path only");
            }
        } catch (URISyntaxException e) {
            throw new WrapperGenerationException(what + "'s server URL " + serverUrl + " is not a valid URL: " + e.getReason());
        }
        return serverUrl.endsWith("/") ? serverUrl.substring(0, serverUrl.length() - 1) : serverUrl;
    }

    private static void checkPath(HttpBinding binding, String what) throws WrapperGenerationException {
        String template = binding.pathTemplate() == null ? "" : binding.pathTemplate();
        Set<String> placeholders = new HashSet<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            placeholders.add(m.group(1));
        }
        Set<String> pathInputs = new HashSet<>();
        for (ParameterBinding p : binding.parameters()) {
            if (p.location() == ParameterLocation.PATH) {
                String wire = p.wireName() == null ? p.name() : p.wireName();
                pathInputs.add(wire);
                if (!placeholders.contains(wire)) {
                    throw new WrapperGenerationException(what + ": path input '" + p.name() + "' has no {" + wire
                            + "} in the path " + template);
                }
                if (!p.required()) {
                    throw new WrapperGenerationException(what + ": path input '" + p.name()
                            + "' must be required (OpenAPI path parameters always are)");
                }
            }
        }
        for (String placeholder : placeholders) {
            if (!pathInputs.contains(placeholder)) {
                throw new WrapperGenerationException(what + ": the path " + template + " has {" + placeholder
                        + "} but no path input fills it");
            }
        }
    }

    private static void checkInputs(ToolManifest manifest, HttpBinding binding) throws WrapperGenerationException {
        JsonNode properties = manifest.inputSchema() == null ? null : manifest.inputSchema().get("properties");
        if (properties == null || !properties.isObject()) {
            if (!binding.parameters().isEmpty()) {
                throw new WrapperGenerationException("the binding maps " + binding.parameters().size()
                        + " inputs but the input schema declares no properties");
            }
            return;
        }
        Set<String> requiredInSchema = new HashSet<>();
        manifest.inputSchema().path("required").forEach(n -> requiredInSchema.add(n.asText()));
        for (ParameterBinding p : binding.parameters()) {
            if (!properties.has(p.name())) {
                throw new WrapperGenerationException("the binding maps input '" + p.name()
                        + "', which the input schema does not declare");
            }
            if (p.required() && !requiredInSchema.contains(p.name())) {
                throw new WrapperGenerationException("input '" + p.name()
                        + "' is required by the binding but optional in the input schema");
            }
        }
    }

    private static AuthBinding authFromPolicy(AuthBinding auth, UsagePolicy policy, List<String> notes)
            throws WrapperGenerationException {
        if (auth.scheme() == AuthBinding.Scheme.NONE) {
            return auth;
        }
        if ((auth.scheme() == AuthBinding.Scheme.API_KEY_HEADER || auth.scheme() == AuthBinding.Scheme.API_KEY_QUERY
                || auth.scheme() == AuthBinding.Scheme.API_KEY_COOKIE)
                && (auth.parameterName() == null || auth.parameterName().isBlank())) {
            throw new WrapperGenerationException("auth scheme " + auth.scheme() + " needs the name of the key's "
                    + "header, query parameter or cookie; the spec's security scheme has none");
        }
        String wanted = auth.secretName();
        Set<String> provided = policy.secrets().keySet();
        if (wanted != null && provided.contains(wanted)) {
            return auth;
        }
        if (provided.size() == 1) {
            String only = provided.iterator().next();
            notes.add("auth secret '" + wanted + "' is filled by the policy's only secret '" + only + "'");
            return new AuthBinding(auth.scheme(), auth.parameterName(), only);
        }
        throw new WrapperGenerationException("the tool authenticates with " + auth.scheme()
                + (auth.parameterName() == null ? "" : " '" + auth.parameterName() + "'") + " from secret '" + wanted
                + "', but the approval's policy " + (provided.isEmpty() ? "has no secrets"
                        : "provides only " + provided.stream().sorted().toList())
                + ": add secret '" + wanted + "' to the policy and retry the build");
    }
}
