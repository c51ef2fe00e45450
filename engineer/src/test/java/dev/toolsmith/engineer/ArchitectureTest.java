package dev.toolsmith.engineer;

import dev.toolsmith.testsupport.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The engineer imports no other service and has no package cycle (the shared
 * rules of issue 23, test-support's ArchitectureRules).
 */
class ArchitectureTest {

    @Test
    void followsTheSharedRulesOfEveryService() {
        ArchitectureRules.checkService(ArchitectureRules.ENGINEER);
    }
}
