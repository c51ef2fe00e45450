package dev.toolsmith.eventing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractValidator;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * One contract codec per service, and the REST layer's Jackson mapper configured like it, so a record
 * looks the same on HTTP as on Kafka. Request bodies are read more strictly than events: a field the
 * endpoint does not know, a fraction where a whole number belongs ({@code perDay: 1.5} would become 1)
 * and a number or boolean where text belongs (a secret of {@code 42}) are refused with the field's
 * pointer, because a caller's typo must not change what was asked for without a word.
 */
@Singleton
public class ContractCodecProducer implements ObjectMapperCustomizer {

    @Produces
    @Singleton
    ContractCodec contractCodec() {
        return new ContractCodec(ContractCodec.defaultMapper(), new ContractValidator());
    }

    @Override
    public void customize(ObjectMapper mapper) {
        ContractCodec.configure(mapper)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    }
}
