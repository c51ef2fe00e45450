package dev.toolsmith.testsupport.arch;

import org.junit.jupiter.api.Test;

/** test-support keeps the library rules it hands to every module. */
class LibraryArchitectureTest {

    @Test
    void testSupportImportsNoServiceAndHasNoPackageCycle() {
        ArchitectureRules.checkLibrary("dev.toolsmith.testsupport");
    }
}
