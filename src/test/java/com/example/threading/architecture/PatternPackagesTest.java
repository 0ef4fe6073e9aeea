package com.example.threading.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packages a reader copies stand alone, checked on the compiled classes (a fully qualified name or an annotation
 * counts as much as an import): a pattern package depends on no other pattern package, nor on the application or the
 * infrastructure; a sub-package depends on its parent only, never the reverse; the infrastructure ({@code errors},
 * {@code metrics}, {@code health}, {@code live}) depends on no pattern. Only the application ({@code com.example.threading} itself)
 * ties them together.
 */
class PatternPackagesTest {

    static final String ROOT = "com.example.threading";
    /** Each pattern's package; a sub-package ({@code parent.child}) builds on its parent. */
    static final List<String> PATTERNS = List.of("work", "client", "longpoll", "longpoll.redis", "longpoll.auth", "jetty", "jetty.virtual", "admission");
    /** Shared by the application, never by a pattern. */
    static final List<String> INFRASTRUCTURE = List.of("errors", "metrics", "health", "live");

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
    void everyPackageOfTheServiceIsAPatternOrInfrastructure() {
        List<String> known = new ArrayList<>(List.of(ROOT));
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
     * a parent never depends on its sub-package), on the infrastructure, or on the application's package.
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
                .because("a pattern is copied alone: one folder and one addBundle line");
    }
}
