package dev.toolsmith.eventing.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Refuses a JSON request body that is not well-formed UTF-8 (RFC 8259 allows no other encoding; decoded
 * leniently, the bytes would be stored as other text than the client sent), with a 400 naming the first bad
 * byte, and one whose strings (values or field names) hold the NUL character, with a 400 naming
 * the field's JSON Pointer. PostgreSQL cannot store NUL in text, so such a value used to reach the database and
 * come back as a 500. Every JSON body passes here, whatever the endpoint binds it to (a record, a tree, or a
 * String handed to the contract codec). A raw NUL byte is not valid JSON anyway; only the escape {@code \u0000}
 * can carry one, so bodies without that escape are passed on without being parsed twice.
 */
@Provider
public class JsonBodyGuard implements ReaderInterceptor {

    private static final byte[] ESCAPED_NUL = "\\u0000".getBytes(StandardCharsets.US_ASCII);
    private static final ObjectMapper TREES = new ObjectMapper();

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException, WebApplicationException {
        MediaType type = context.getMediaType();
        if (type == null || !(type.getSubtype().equals("json") || type.getSubtype().endsWith("+json"))) {
            return context.proceed();
        }
        byte[] body = context.getInputStream().readAllBytes();
        OptionalInt malformed = Utf8Text.firstMalformedByte(body);
        if (malformed.isPresent()) {
            throw new WebApplicationException(Response.status(400).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(ApiError.of(400, "request body: not valid UTF-8 at byte " + malformed.getAsInt()
                            + " (JSON must be UTF-8)"))
                    .build());
        }
        if (contains(body, ESCAPED_NUL)) {
            String pointer = pointerOfNul(body);
            if (pointer != null) {
                throw new WebApplicationException(Response.status(400).type(MediaType.APPLICATION_JSON_TYPE)
                        .entity(new ApiError(400, "field " + (pointer.isEmpty() ? "(the document)" : pointer)
                                + " contains the NUL character (U+0000), which is not allowed", pointer))
                        .build());
            }
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }

    /** The pointer of the first string holding NUL, or null when there is none (or the body is not JSON). */
    static String pointerOfNul(byte[] body) {
        try {
            return find(TREES.readTree(body), "");
        } catch (IOException e) {
            return null; // not JSON: the body reader answers that with its own 400
        }
    }

    private static String find(JsonNode node, String at) {
        if (node == null) {
            return null;
        }
        if (node.isTextual()) {
            return node.textValue().indexOf('\0') >= 0 ? at : null;
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = find(node.get(i), at + "/" + i);
                if (found != null) {
                    return found;
                }
            }
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
                Map.Entry<String, JsonNode> field = fields.next();
                String path = at + "/" + field.getKey().replace("~", "~0").replace("/", "~1");
                if (field.getKey().indexOf('\0') >= 0) {
                    return path.replace("\0", "\\u0000");
                }
                String found = find(field.getValue(), path);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
