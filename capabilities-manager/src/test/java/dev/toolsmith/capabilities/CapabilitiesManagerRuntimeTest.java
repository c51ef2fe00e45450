package dev.toolsmith.capabilities;

import dev.toolsmith.testsupport.RecordedLlmResource;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.ServiceRuntimeContract;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;

/** The capabilities-manager boots against the real PostgreSQL and Kafka and keeps the runtime promises. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_capabilities"))
@QuarkusTestResource(RecordedLlmResource.class)
class CapabilitiesManagerRuntimeTest extends ServiceRuntimeContract {

    @Override
    protected String schema() {
        return "capabilities";
    }

    @Override
    protected String database() {
        return "toolsmith_test_capabilities";
    }
}
