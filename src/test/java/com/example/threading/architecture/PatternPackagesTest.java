package com.example.threading.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packages a reader copies stand alone, checked on the compiled classes (a fully qualified name or an annotation
 * counts as much as an import): a pattern package depends on no other pattern package, nor on the application or the
 * infrastructure; a sub-package depends on its parent only, never the reverse; the infrastructure ({@code errors},
 * {@code metrics}, {@code health}, {@code live}) depends on no pattern. Any of them may use {@code support}, which depends
 * on no other package of the project: a copier copies it with the patterns that use it ({@link #USES_SUPPORT}). Only
 * the application ({@code com.example.threading} itself) ties them together.
 */
class PatternPackagesTest {

    static final String ROOT = "com.example.threading";
    /** Each pattern's package; a sub-package ({@code parent.child}) builds on its parent. */
    static final List<String> PATTERNS = List.of("work", "client", "longpoll", "longpoll.redis", "longpoll.auth", "jetty", "jetty.virtual", "admission");
    /** Shared by the application, never by a pattern. */
    static final List<String> INFRASTRUCTURE = List.of("errors", "metrics", "health", "live");
    /** Helpers any pattern may use; copied with each pattern that uses it. */
    static final String SUPPORT = "support";
    /** The patterns whose classes use {@code support}: their documentation says to copy it too. */
    static final Set<String> USES_SUPPORT = Set.of("work", "client");

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    static Stream<String> patterns() {
        return PATTERNS.stream();
    }

    static Stream<String> infrastructure() {
        return INFRASTRUCTURE.stream();
    }

    @ParameterizedTest
    @MethodSource("patterns")
    void aPatternUsesNoOtherPackageOfThisProjectButItsParent(String pattern) {
        rulePatternStandsAlone(pattern).check(MAIN);
    }

    @ParameterizedTest
    @MethodSource("infrastructure")
    void infrastructureUsesNoPattern(String infrastructure) {
        List<String> forbidden = new ArrayList<>();
        PATTERNS.forEach(pattern -> forbidden.add(ROOT + "." + pattern + ".."));
        INFRASTRUCTURE.stream().filter(other -> !other.equals(infrastructure)).forEach(other -> forbidden.add(ROOT + "." + other + ".."));
        noClasses().that().resideInAPackage(ROOT + "." + infrastructure + "..")
                .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                .orShould().dependOnClassesThat().resideInAPackage(ROOT)
                .check(MAIN);
    }

    @Test
    void supportUsesNoOtherPackageOfThisProject() {
        ruleSupportStandsAlone().check(MAIN);
    }

    @Test
    void supportThatUsesThePatternsIsCaught() throws ClassNotFoundException {
        Class<?> fixture = Class.forName(ROOT + ".support.ProjectDependencyFixture"); // a test class in support that uses work
        JavaClasses withViolation = new ClassFileImporter().importClasses(fixture, com.example.threading.work.WorkBundle.class);

        EvaluationResult result = ruleSupportStandsAlone().evaluate(withViolation);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(fixture.getName()).contains("WorkBundle");
    }

    @Test
    void thePatternsThatUseSupportAreTheOnesDeclared() {
        Set<String> users = new TreeSet<>();
        MAIN.stream().filter(javaClass -> javaClass.getPackageName().startsWith(ROOT + "."))
                .filter(javaClass -> javaClass.getDirectDependenciesFromSelf().stream()
                        .anyMatch(dependency -> dependency.getTargetClass().getPackageName().equals(ROOT + "." + SUPPORT)))
                .map(javaClass -> javaClass.getPackageName().substring(ROOT.length() + 1))
                .filter(PATTERNS::contains)
                .forEach(users::add);

        assertThat(users).as("patterns whose classes use support (CompileAloneTest compiles these with it)")
                .containsExactlyInAnyOrderElementsOf(USES_SUPPORT);
    }

    @Test
    void everyPackageOfTheServiceIsAPatternOrInfrastructure() {
        List<String> known = new ArrayList<>(List.of(ROOT, ROOT + "." + SUPPORT));
        Stream.concat(PATTERNS.stream(), INFRASTRUCTURE.stream()).forEach(name -> known.add(ROOT + "." + name));
        assertThat(MAIN.stream().map(javaClass -> javaClass.getPackageName()).distinct()).allMatch(known::contains);
    }

    @Test
    void aPatternThatUsesAnotherIsCaught() throws ClassNotFoundException {
        Class<?> fixture = Class.forName(ROOT + ".work.CrossPatternFixture"); // a test class in work that uses client
        JavaClasses withViolation = new ClassFileImporter().importClasses(fixture, com.example.threading.client.FanoutBundle.class);

        EvaluationResult result = rulePatternStandsAlone("work").evaluate(withViolation);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(fixture.getName()).contains("FanoutBundle");
    }

    /**
     * No class of {@code pattern} depends on another pattern package (its own sub-packages are other patterns too:
     * a parent never depends on its sub-package), on the infrastructure, or on the application's package;
     * {@code support} is allowed.
     */
    static ArchRule rulePatternStandsAlone(String pattern) {
        String parent = pattern.contains(".") ? pattern.substring(0, pattern.lastIndexOf('.')) : null;
        List<String> forbidden = new ArrayList<>();
        for (String other : PATTERNS) {
            if (!other.equals(pattern) && !other.equals(parent)) {
                forbidden.add(ROOT + "." + other + "..");
            }
        }
        INFRASTRUCTURE.forEach(infrastructure -> forbidden.add(ROOT + "." + infrastructure + ".."));
        return noClasses().that().resideInAPackage(ROOT + "." + pattern)
                .should().dependOnClassesThat().resideInAnyPackage(forbidden.toArray(String[]::new))
                .orShould().dependOnClassesThat().resideInAPackage(ROOT)
                .because("a pattern is copied alone: one folder (plus support) and one addBundle line");
    }

    /** No class of {@code support} depends on a class of this project outside {@code support}. */
    static ArchRule ruleSupportStandsAlone() {
        return noClasses().that().resideInAPackage(ROOT + "." + SUPPORT + "..")
                .should().dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAPackage(ROOT + "." + SUPPORT + ".."))))
                .because("support is copied with any pattern, so it can need nothing else of the project");
    }
}
