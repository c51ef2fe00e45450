package dev.toolsmith.sandbox;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A request built from a binding and inputs, ready to send; {@link #recorded()} is its redacted record. */
record PreparedRequest(String method, URI uri, List<Map.Entry<String, String>> headers, byte[] body,
        Redactor redactor) {

    /** The same request to another URL (a same-host redirect); 303, and 301/302 after a POST, turn it into a GET. */
    PreparedRequest redirectedTo(URI target, int status) {
        boolean toGet = status == 303 || ((status == 301 || status == 302) && !"GET".equals(method) && !"HEAD".equals(method));
        if (!toGet) {
            return new PreparedRequest(method, target, headers, body, redactor);
        }
        List<Map.Entry<String, String>> withoutBodyHeaders = headers.stream()
                .filter(h -> !h.getKey().equalsIgnoreCase("Content-Type")).toList();
        return new PreparedRequest("GET", target, withoutBodyHeaders, null, redactor);
    }

    RecordedRequest recorded() {
        Map<String, List<String>> recordedHeaders = new LinkedHashMap<>();
        for (Map.Entry<String, String> header : headers) {
            recordedHeaders.merge(header.getKey(), List.of(redactor.scrub(header.getValue())),
                    (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList());
        }
        String recordedBody = body == null ? null : redactor.scrub(new String(body, StandardCharsets.UTF_8));
        return new RecordedRequest(method, redactor.scrub(uri.toString()), recordedHeaders, recordedBody);
    }
}
