package dev.toolsmith.contracts.airlock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolsmith.contracts.tool.ContentHash;
import dev.toolsmith.contracts.tool.HealthProbe;
import dev.toolsmith.contracts.tool.HttpBinding;
import dev.toolsmith.contracts.tool.ToolManifest;
import java.util.Locale;

/**
 * What an approval binds, as hashes both ends compute the same way: the librarian from the manifest an
 * admin approved, the verifiers from the wrapper the engineer built. Only what decides where a call goes
 * and what it may do is included; the engineer may legitimately change the rest (a description an LLM
 * improved, timeouts lowered to the platform's ceilings, auth resolved from the policy's secrets).
 */
public final class ApprovalFingerprints {

    private ApprovalFingerprints() {
    }

    /** Verb, risk, source, method, server, path, parameter placement and body encoding of the tool's call. */
    public static String call(ToolManifest manifest, ObjectMapper mapper) {
        return ContentHash.of(callContent(manifest, mapper));
    }

    /** Whether {@code sealed} is the call hash of {@code manifest}, in the hash version it names. */
    public static boolean callMatches(String sealed, ToolManifest manifest, ObjectMapper mapper) {
        return ContentHash.matches(sealed, callContent(manifest, mapper));
    }

    /** The health probe's call; null when the manifest has none or it is unavailable (nothing is sent). */
    public static String probe(ToolManifest manifest, ObjectMapper mapper) {
        JsonNode content = probeContent(manifest, mapper);
        return content == null ? null : ContentHash.of(content);
    }

    /**
     * Whether the probe {@code manifest} may send is the sealed one, in the hash version {@code sealed} names; true
     * when it sends none.
     */
    public static boolean probeMatches(String sealed, ToolManifest manifest, ObjectMapper mapper) {
        JsonNode content = probeContent(manifest, mapper);
        return content == null || ContentHash.matches(sealed, content);
    }

    /** The usage policy in force; no policy is the unrestricted one, as the engineer reads it. */
    public static String policy(UsagePolicy policy, ObjectMapper mapper) {
        return ContentHash.of(policyContent(policy, mapper));
    }

    /** Whether {@code sealed} is the hash of {@code policy}, in the hash version it names. */
    public static boolean policyMatches(String sealed, UsagePolicy policy, ObjectMapper mapper) {
        return ContentHash.matches(sealed, policyContent(policy, mapper));
    }

    private static JsonNode callContent(ToolManifest manifest, ObjectMapper mapper) {
        ObjectNode call = mapper.createObjectNode();
        call.put("id", manifest.id());
        call.put("verb", manifest.verb());
        call.put("risk", manifest.risk() == null ? null : manifest.risk().name());
        call.put("source", manifest.source() == null ? null : manifest.source().name());
        call.set("binding", binding(manifest.binding(), mapper));
        return call;
    }

    private static JsonNode probeContent(ToolManifest manifest, ObjectMapper mapper) {
        HealthProbe probe = manifest.healthProbe();
        if (probe == null || !probe.available()) {
            return null;
        }
        ObjectNode call = mapper.createObjectNode();
        call.set("binding", binding(probe.binding(), mapper));
        call.set("inputs", mapper.valueToTree(probe.inputs()));
        return call;
    }

    private static JsonNode policyContent(UsagePolicy policy, ObjectMapper mapper) {
        return mapper.valueToTree(policy == null ? UsagePolicy.unrestricted() : policy);
    }

    private static ObjectNode binding(HttpBinding binding, ObjectMapper mapper) {
        if (binding == null) {
            return null;
        }
        ObjectNode node = mapper.createObjectNode();
        node.put("method", binding.method() == null ? null : binding.method().toUpperCase(Locale.ROOT));
        node.put("serverUrl", withoutTrailingSlash(binding.serverUrl()));
        node.put("pathTemplate", binding.pathTemplate());
        node.set("parameters", mapper.valueToTree(binding.parameters()));
        node.put("bodyEncoding", binding.bodyEncoding().name());
        return node;
    }

    /** The engineer stores server URLs without a trailing slash; both spellings are one server. */
    private static String withoutTrailingSlash(String url) {
        return url != null && url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
