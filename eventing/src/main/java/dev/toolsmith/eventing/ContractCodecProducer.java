package dev.toolsmith.eventing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolsmith.contracts.event.ContractCodec;
import dev.toolsmith.contracts.event.ContractValidator;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * One contract codec per service, and the REST layer's Jackson mapper configured like it, so a record
 * looks the same on HTTP as on Kafka.
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
        ContractCodec.configure(mapper);
    }
}
