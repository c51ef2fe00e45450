package dev.toolsmith.engineer;

import dev.toolsmith.engineer.support.LlmAndLibrarianStub;
import dev.toolsmith.testsupport.KafkaTestResource;
import dev.toolsmith.testsupport.PostgresTestResource;
import dev.toolsmith.testsupport.ServiceRuntimeContract;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.ResourceArg;
import io.quarkus.test.junit.QuarkusTest;

/** The engineer boots against the real PostgreSQL and Kafka and keeps the runtime promises. */
@QuarkusTest
@QuarkusTestResource(KafkaTestResource.class)
@QuarkusTestResource(value = PostgresTestResource.class,
        initArgs = @ResourceArg(name = "database", value = "toolsmith_test_engineer"))
@QuarkusTestResource(LlmAndLibrarianStub.class)
class EngineerRuntimeTest extends ServiceRuntimeContract {

    @Override
    protected String schema() {
        return "engineer";
    }

    @Override
    protected String database() {
        return "toolsmith_test_engineer";
    }
}
