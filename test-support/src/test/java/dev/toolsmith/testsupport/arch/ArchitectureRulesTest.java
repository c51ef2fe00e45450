package dev.toolsmith.testsupport.arch;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared rules find what they forbid (on fixture packages under this one) and pass what they allow. */
class ArchitectureRulesTest {

    private static final String FIXTURE = "dev.toolsmith.testsupport.arch.fixture";
    private static final List<String> FIXTURE_SERVICES = List.of(FIXTURE + ".one", FIXTURE + ".two");

    private static JavaClasses classes(String subPackage) {
        return new ClassFileImporter().importPackages(FIXTURE + "." + subPackage);
    }

    @Test
    void aPackageCycleIsReportedWithBothPackages() {
        assertThatThrownBy(() -> ArchitectureRules.noPackageCycles().check(classes("cycle")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("cycle.up")
                .hasMessageContaining("cycle.down");
    }

    @Test
    void packagesWithoutACyclePass() {
        ArchitectureRules.noPackageCycles().check(classes("one"));
        ArchitectureRules.noPackageCycles().check(classes("two"));
    }

    @Test
    void aServiceImportingAnotherIsReported() {
        assertThatThrownBy(() -> ArchitectureRules.servicesNeverImportOneAnother(FIXTURE_SERVICES)
                .check(classes("one")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("ServiceOne")
                .hasMessageContaining("ServiceTwo");
    }

    @Test
    void aServiceImportingNoOtherPasses() {
        ArchitectureRules.servicesNeverImportOneAnother(FIXTURE_SERVICES).check(classes("two"));
    }

    @Test
    void aLibraryImportingAServiceIsReported() {
        assertThatThrownBy(() -> ArchitectureRules.librariesNeverImportServices(FIXTURE_SERVICES)
                .check(classes("lib")))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Library")
                .hasMessageContaining("ServiceTwo");
    }

    @Test
    void aWrongRootPackageIsRefusedRatherThanPassingOnNothing() {
        assertThatThrownBy(() -> ArchitectureRules.productionClassesOf("dev.toolsmith.nosuchmodule"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dev.toolsmith.nosuchmodule");
    }
}
