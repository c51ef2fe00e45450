package dev.toolsmith.testsupport.arch;

import org.junit.jupiter.api.Test;

/**
 * test-support keeps the library rules it hands to every module; contracts is checked here because it sits below
 * test-support in the build and cannot use it.
 */
class LibraryArchitectureTest {

    @Test
    void testSupportImportsNoServiceAndHasNoPackageCycle() {
        ArchitectureRules.checkLibrary("dev.toolsmith.testsupport");
    }

    @Test
    void contractsImportsNoServiceAndHasNoPackageCycle() {
        ArchitectureRules.checkLibrary("dev.toolsmith.contracts");
    }
}
