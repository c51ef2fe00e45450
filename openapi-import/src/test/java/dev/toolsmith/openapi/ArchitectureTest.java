package dev.toolsmith.openapi;

import dev.toolsmith.testsupport.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI import library imports no service and has no package cycle (the shared
 * rules of issue 23, test-support's ArchitectureRules).
 */
class ArchitectureTest {

    @Test
    void importsNoServiceAndHasNoPackageCycle() {
        ArchitectureRules.checkLibrary("dev.toolsmith.openapi");
    }
}
