package dev.toolsmith.sandbox;

import dev.toolsmith.testsupport.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The sandbox HTTP executor imports no service and has no package cycle (the shared
 * rules of issue 23, test-support's ArchitectureRules).
 */
class ArchitectureTest {

    @Test
    void importsNoServiceAndHasNoPackageCycle() {
        ArchitectureRules.checkLibrary("dev.toolsmith.sandbox");
    }
}
