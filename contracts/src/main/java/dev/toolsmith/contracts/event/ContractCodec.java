package dev.toolsmith.contracts.event;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.UUID;

/**
 * Reads and writes contract messages and their CloudEvents envelopes, validating every message read
 * against its schema so a bad message is refused at the edge with the field that is wrong.
 */
public final class ContractCodec {

    private final ObjectMapper mapper;
    private final ContractValidator validator;

    public ContractCodec() {
        this(defaultMapper(), new ContractValidator());
    }

    public ContractCodec(ObjectMapper mapper, ContractValidator validator) {
        this.mapper = mapper;
        this.validator = validator;
    }

    /**
     * The Jackson settings every service uses for contracts: ISO-8601 times, unknown fields ignored (a newer
     * producer may add fields), nothing after the document.
     */
    public static ObjectMapper defaultMapper() {
        return configure(new ObjectMapper());
    }

    public static ObjectMapper configure(ObjectMapper mapper) {
        return mapper.registerModule(new JavaTimeModule())
                .enable(com.fasterxml.jackson.core.JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                // {"a":1} garbage is not a document: what follows the value would be lost without a word
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE);
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    public ContractValidator validator() {
        return validator;
    }

    public JsonNode toJson(Object message) {
        return mapper.valueToTree(message);
    }

    /** Validates {@code json} against the contract of {@code type} and maps it to its record. */
    public <T> T read(JsonNode json, Class<T> type) {
        validator.validate(MessageType.of(type), json);
        try {
            return mapper.treeToValue(json, type);
        } catch (JsonProcessingException e) {
            throw new ContractViolation("", MessageType.of(type).name().toLowerCase() + ": " + e.getOriginalMessage());
        }
    }

    public <T> T read(String json, Class<T> type) {
        return read(parse(json), type);
    }

    public JsonNode parse(String json) {
        try {
            return mapper.readTree(json);
        } catch (JsonProcessingException e) {
            throw new ContractViolation("", "not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** Wraps a message in a new envelope with a fresh id. */
    public EventEnvelope envelope(Object message, String source, String subject) {
        MessageType type = MessageType.of(message.getClass());
        return new EventEnvelope(EventEnvelope.SPEC_VERSION, UUID.randomUUID().toString(), type.cloudEventType(),
                source, Instant.now(), subject, EventEnvelope.CONTENT_TYPE, toJson(message));
    }

    public byte[] serialize(EventEnvelope envelope) {
        try {
            return mapper.writeValueAsBytes(envelope);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an envelope is always serialisable", e);
        }
    }

    /**
     * Parses an envelope and checks its attributes; the payload is checked by {@link #payload}. The optional
     * {@code traceparent} extension is kept as given when it is a string (its format is the tracer's concern).
     */
    public EventEnvelope openEnvelope(byte[] bytes) {
        JsonNode tree = parse(utf8(bytes));
        for (String attribute : new String[] {"id", "type", "source", "specversion"}) {
            if (!tree.path(attribute).isTextual() || tree.path(attribute).asText().isBlank()) {
                throw new ContractViolation("/" + attribute, "envelope: field /" + attribute + " is required");
            }
        }
        if (!EventEnvelope.SPEC_VERSION.equals(tree.get("specversion").asText())) {
            throw new ContractViolation("/specversion", "envelope: field /specversion is '"
                    + tree.get("specversion").asText() + "'; only CloudEvents " + EventEnvelope.SPEC_VERSION
                    + " is understood");
        }
        if (!tree.has("data")) {
            throw new ContractViolation("/data", "envelope: field /data is required");
        }
        if (tree.has("traceparent") && !tree.get("traceparent").isTextual() && tree instanceof ObjectNode object) {
            // Tracing is best effort: a malformed trace context starts a new trace, it never refuses the event.
            object.remove("traceparent");
        }
        try {
            return mapper.treeToValue(tree, EventEnvelope.class);
        } catch (JsonProcessingException e) {
            throw new ContractViolation("", "envelope: " + e.getOriginalMessage());
        }
    }

    /** Strict UTF-8: a malformed byte is refused, never silently replaced by U+FFFD in an id or a value. */
    private static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ContractViolation("", "not valid UTF-8: an event is UTF-8 encoded JSON");
        }
    }

    /** The envelope's payload as {@code type}, validated; the envelope's type must match. */
    public <T> T payload(EventEnvelope envelope, Class<T> type) {
        MessageType expected = MessageType.of(type);
        if (!expected.cloudEventType().equals(envelope.type())) {
            throw new ContractViolation("/type", "envelope: field /type is '" + envelope.type() + "', expected '"
                    + expected.cloudEventType() + "'");
        }
        try {
            return read(envelope.data(), type);
        } catch (ContractViolation violation) {
            String inEnvelope = violation.getMessage().replaceFirst("^field /", "field /data/")
                    .replaceFirst("^the document", "field /data");
            throw new ContractViolation("/data" + violation.pointer(), inEnvelope);
        }
    }
}
