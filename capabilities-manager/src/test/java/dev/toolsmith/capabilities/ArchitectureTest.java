package dev.toolsmith.capabilities;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.toolsmith.testsupport.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The capabilities manager's structure (issue 23): the shared rules (no package cycle, no import of another
 * service), and the two directions its features were untangled along, so a change that turns one back fails
 * here with the offending class named.
 */
class ArchitectureTest {

    private static final JavaClasses CLASSES = ArchitectureRules.productionClassesOf(
            ArchitectureRules.CAPABILITIES_MANAGER);

    @Test
    void followsTheSharedRulesOfEveryService() {
        ArchitectureRules.checkService(ArchitectureRules.CAPABILITIES_MANAGER);
    }

    @Test
    void resolutionDecidesAndNeverRunsAStep() {
        noClasses().that().resideInAPackage("dev.toolsmith.capabilities.resolution..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.toolsmith.capabilities.step..",
                        "dev.toolsmith.capabilities.execution..", "dev.toolsmith.capabilities.wrapped..")
                .because("resolution returns a Resolution and the step package carries it out")
                .check(CLASSES);
    }

    @Test
    void theRegistryKnowsNothingBuiltOnIt() {
        noClasses().that().resideInAPackage("dev.toolsmith.capabilities.registry..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.toolsmith.capabilities.health..",
                        "dev.toolsmith.capabilities.policy..", "dev.toolsmith.capabilities.execution..",
                        "dev.toolsmith.capabilities.wrapped..", "dev.toolsmith.capabilities.resolution..",
                        "dev.toolsmith.capabilities.step..", "dev.toolsmith.capabilities.mcp..")
                .because("health, policy and the executors build on the registry; it reaches health only through"
                        + " the NewVerifiedBuild interface it owns")
                .check(CLASSES);
    }
}
