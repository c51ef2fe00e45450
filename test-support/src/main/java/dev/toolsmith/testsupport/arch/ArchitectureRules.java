package dev.toolsmith.testsupport.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import java.util.ArrayList;
import java.util.List;

/**
 * The structure every module keeps (issue 23), as ArchUnit rules each module's own test applies to its
 * production classes:
 *
 * <ul>
 *   <li>the services (librarian, capabilities manager, engineer, airlock UI) never import one another: they
 *       talk over Kafka and HTTP with the types of {@code contracts}, so each can be changed and deployed alone;
 *   <li>the libraries (contracts, eventing, search, sandbox-http, openapi-import, test-support) never import a
 *       service, so a library change cannot need a service to build;
 *   <li>no package cycle within a module: every package can be read and changed by knowing only the packages
 *       below it.
 * </ul>
 *
 * <p>Usage in a module's test: {@code ArchitectureRules.checkService(ArchitectureRules.ENGINEER)} or
 * {@code checkLibrary("dev.toolsmith.search")}; or import with {@link #productionClassesOf} and check the
 * rules one by one.
 */
public final class ArchitectureRules {

    public static final String LIBRARIAN = "dev.toolsmith.librarian";
    public static final String CAPABILITIES_MANAGER = "dev.toolsmith.capabilities";
    public static final String ENGINEER = "dev.toolsmith.engineer";
    public static final String AIRLOCK_UI = "dev.toolsmith.ui";

    /** The root package of every service. */
    public static final List<String> SERVICES = List.of(LIBRARIAN, CAPABILITIES_MANAGER, ENGINEER, AIRLOCK_UI);

    private ArchitectureRules() {
    }

    /** The main (not test) classes of the module whose root package is {@code rootPackage}. */
    public static JavaClasses productionClassesOf(String rootPackage) {
        JavaClasses classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(rootPackage);
        if (classes.isEmpty()) {
            // A wrong package name would otherwise make every rule pass on nothing.
            throw new IllegalArgumentException("no production classes found under " + rootPackage);
        }
        return classes;
    }

    /** No class of one service depends on a class of another. */
    public static ArchRule servicesNeverImportOneAnother() {
        return servicesNeverImportOneAnother(SERVICES);
    }

    /** No class of a library depends on a class of a service. */
    public static ArchRule librariesNeverImportServices() {
        return librariesNeverImportServices(SERVICES);
    }

    /** No cycle between the packages of the classes checked (each package is its own slice). */
    public static ArchRule noPackageCycles() {
        return slices().matching("dev.toolsmith.(**)").namingSlices("$1")
                .should().beFreeOfCycles()
                .because("a package cycle means no part of it can be understood or changed alone");
    }

    /** Checks a service's production classes against its rules; throws {@link AssertionError} naming each violation. */
    public static void checkService(String serviceRootPackage) {
        if (!SERVICES.contains(serviceRootPackage)) {
            throw new IllegalArgumentException(serviceRootPackage + " is not a service root package: " + SERVICES);
        }
        JavaClasses classes = productionClassesOf(serviceRootPackage);
        servicesNeverImportOneAnother().check(classes);
        noPackageCycles().check(classes);
    }

    /** Checks a library's production classes against its rules; throws {@link AssertionError} naming each violation. */
    public static void checkLibrary(String libraryRootPackage) {
        if (SERVICES.contains(libraryRootPackage)) {
            throw new IllegalArgumentException(libraryRootPackage + " is a service, not a library");
        }
        JavaClasses classes = productionClassesOf(libraryRootPackage);
        librariesNeverImportServices().check(classes);
        noPackageCycles().check(classes);
    }

    /** The rule over any set of service root packages (its own test runs it on fixture packages). */
    static ArchRule servicesNeverImportOneAnother(List<String> serviceRoots) {
        List<ArchRule> rules = new ArrayList<>();
        for (String service : serviceRoots) {
            String[] others = serviceRoots.stream().filter(other -> !other.equals(service))
                    .map(other -> other + "..").toArray(String[]::new);
            rules.add(noClasses().that().resideInAPackage(service + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(others)
                    .because("services talk over Kafka and HTTP with the types of contracts, never by import")
                    // a module holds one service: the rules about the others have no class to check there
                    .allowEmptyShould(true));
        }
        CompositeArchRule composite = CompositeArchRule.of(rules.get(0));
        for (ArchRule rule : rules.subList(1, rules.size())) {
            composite = composite.and(rule);
        }
        return composite;
    }

    /** The rule over any set of service root packages (its own test runs it on fixture packages). */
    static ArchRule librariesNeverImportServices(List<String> serviceRoots) {
        return noClasses().should().dependOnClassesThat()
                .resideInAnyPackage(serviceRoots.stream().map(root -> root + "..").toArray(String[]::new))
                .because("a library must build and change without any service");
    }
}
