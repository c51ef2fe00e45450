package dev.toolsmith.engineer.verify;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One case of a plugin's generated suite. For a request case, {@code request} is the expected shape and
 * {@code response} what the stub answers; an {@link CaseKind#INVALID_INPUT} case has neither, and
 * {@code expectedRefusal} names the input that must be refused before sending.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VerificationCase(
        String name,
        CaseKind kind,
        Map<String, JsonNode> inputs,
        ExpectedRequest request,
        StubResponse response,
        String expectedRefusal,
        String note) {
}
