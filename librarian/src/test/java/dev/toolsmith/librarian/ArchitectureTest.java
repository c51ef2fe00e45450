package dev.toolsmith.librarian;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.toolsmith.testsupport.arch.ArchitectureRules;
import org.junit.jupiter.api.Test;

/**
 * The librarian's structure (issue 23): the shared rules (no package cycle, no import of another service),
 * and the directions its packages were untangled along, so a change that turns one back fails here with
 * the offending class named.
 */
class ArchitectureTest {

    private static final String AIRLOCK = "dev.toolsmith.librarian.airlock";

    private static final JavaClasses CLASSES = ArchitectureRules.productionClassesOf(ArchitectureRules.LIBRARIAN);

    @Test
    void followsTheSharedRulesOfEveryService() {
        ArchitectureRules.checkService(ArchitectureRules.LIBRARIAN);
    }

    @Test
    void theCatalogNeverReachesIntoSearch() {
        noClasses().that().resideInAPackage("dev.toolsmith.librarian.catalog..")
                .should().dependOnClassesThat().resideInAPackage("dev.toolsmith.librarian.search..")
                .because("search is a projection of the catalog; the catalog updates this replica's index only"
                        + " through the LocalCatalogIndex interface it owns")
                .check(CLASSES);
    }

    @Test
    void theCatalogUsesOnlyTheAirlocksAuditLogAndCandidates() {
        noClasses().that().resideInAPackage("dev.toolsmith.librarian.catalog..")
                .should().dependOnClassesThat().resideInAnyPackage(AIRLOCK, AIRLOCK + ".source..",
                        AIRLOCK + ".discovery..", AIRLOCK + ".review..", AIRLOCK + ".policy..", AIRLOCK + ".warning..",
                        AIRLOCK + ".gap..", AIRLOCK + ".draft..", AIRLOCK + ".notification..")
                .because("the catalog audits its changes and seals or retires approvals; the review queue builds"
                        + " on the catalog, not the other way round")
                .check(CLASSES);
    }

    @Test
    void theAirlocksSharedPartsKnowNoFeature() {
        noClasses().that().resideInAnyPackage(AIRLOCK, AIRLOCK + ".audit..", AIRLOCK + ".notification..",
                        AIRLOCK + ".candidate..", AIRLOCK + ".discovery..", AIRLOCK + ".policy..",
                        AIRLOCK + ".warning..")
                .should().dependOnClassesThat().resideInAnyPackage(AIRLOCK + ".source..", AIRLOCK + ".review..",
                        AIRLOCK + ".gap..", AIRLOCK + ".draft..")
                .because("sources, review, gaps and drafts are built on the audit log, notifications, the"
                        + " candidate rows and the source readers; these must stay usable without them")
                .check(CLASSES);
    }

    @Test
    void readingASourceNeedsNoRegisteredSource() {
        noClasses().that().resideInAPackage(AIRLOCK + ".discovery..")
                .should().dependOnClassesThat().resideInAnyPackage(AIRLOCK + ".source..", AIRLOCK + ".candidate..")
                .because("a reader turns a SourceSnapshot into a Discovery; scanning and filing it into the queue"
                        + " is the source package's job")
                .check(CLASSES);
    }
}
