package com.example.threading.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The packages a reader copies stand alone, checked on the compiled classes (a fully qualified name or an annotation
 * counts as much as an import): a pattern's packages depend on no other pattern's, nor on the application or the
 * infrastructure; a plug-in ({@code jetty.virtual}, {@code events.stream.redis}, {@code events.access.jwt},
 * {@code events.sse}, {@code events.websocket}) depends only on the packages it builds on, and nothing depends on a
 * plug-in; the infrastructure ({@code errors}, {@code requestlog}, {@code metrics}, {@code health}, {@code live},
 * {@code threads}) depends on no pattern. A pattern of several packages
 * (the events wing) has rules of its own inside ({@link EventsLayersTest}). Any of them may use {@code support}, which
 * depends on no other package of the project: a copier copies it with the patterns that use it ({@link #USES_SUPPORT}).
 * Only the application ({@code com.example.threading} itself) ties them together.
 */
class PatternPackagesTest {

    static final String ROOT = "com.example.threading";
    /**
     * The long-poll's packages (with publishing and the in-process stream): a copier takes them all; Server-Sent Events,
     * WebSocket, Redis and JWT are plug-ins on top.
     */
    static final List<String> EVENTS = List.of("events", "events.stream", "events.stream.config", "events.history", "events.hub",
            "events.http", "events.access", "events.longpoll", "events.publish");
    /** Each pattern's own packages, the first its name. */
    static final Map<String, List<String>> OWN = ownPackages();
    /** What a plug-in builds on: the packages it may use beside its own, which a copier takes with it. */
    static final Map<String, List<String>> BUILDS_ON = Map.of(
            "jetty.virtual", List.of("jetty"),
            "events.stream.redis", List.of("events.stream", "events.stream.config"),
            "events.access.jwt", List.of("events.access", "events.stream"),
            "events.sse", EVENTS,
            "events.websocket", EVENTS);
    /** Each pattern, by its name. */
    static final List<String> PATTERNS = List.copyOf(OWN.keySet());
    /** Shared by the application, never by a pattern. */
    static final List<String> INFRASTRUCTURE = List.of("errors", "metrics", "health", "live", "requestlog", "threads");
    /** Helpers any pattern may use; copied with each pattern that uses it. */
    static final String SUPPORT = "support";
    /** The patterns whose classes use {@code support}: their documentation says to copy it too. */
    static final Set<String> USES_SUPPORT = Set.of("work", "client");

    private static Map<String, List<String>> ownPackages() {
        Map<String, List<String>> own = new LinkedHashMap<>();
        for (String single : List.of("work", "client", "context", "jetty", "jetty.virtual", "admission", "events.stream.redis",
                "events.access.jwt", "events.sse", "events.websocket")) {
            own.put(single, List.of(single));
        }
        own.put("events", EVENTS);
        return Collections.unmodifiableMap(own);
    }

    /** The packages {@code pattern} may use: its own, and those it builds on. */
    static List<String> allowed(String pattern) {
        List<String> allowed = new ArrayList<>(OWN.get(pattern));
        allowed.addAll(BUILDS_ON.getOrDefault(pattern, List.of()));
        return allowed;
    }

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
        PATTERNS.forEach(pattern -> OWN.get(pattern).forEach(name -> forbidden.add(ROOT + "." + name)));
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
                .flatMap(name -> PATTERNS.stream().filter(pattern -> OWN.get(pattern).contains(name)))
                .forEach(users::add);

        assertThat(users).as("patterns whose classes use support (CompileAloneTest compiles these with it)")
                .containsExactlyInAnyOrderElementsOf(USES_SUPPORT);
    }

    @Test
    void everyPackageOfTheServiceIsAPatternOrInfrastructure() {
        List<String> known = new ArrayList<>(List.of(ROOT, ROOT + "." + SUPPORT));
        Stream.concat(OWN.values().stream().flatMap(List::stream), INFRASTRUCTURE.stream()).forEach(name -> known.add(ROOT + "." + name));
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
     * No class of {@code pattern}'s own packages depends on a class of this project outside the packages it may use
     * ({@link #allowed}) and {@code support}: not another pattern, not a plug-in of its own, not the infrastructure, not
     * the application's package.
     */
    static ArchRule rulePatternStandsAlone(String pattern) {
        String[] own = OWN.get(pattern).stream().map(name -> ROOT + "." + name).toArray(String[]::new);
        List<String> allowed = new ArrayList<>(allowed(pattern).stream().map(name -> ROOT + "." + name).toList());
        allowed.add(ROOT + "." + SUPPORT);
        DescribedPredicate<JavaClass> elsewhere = resideInAPackage(ROOT + "..")
                .and(not(resideInAnyPackage(allowed.toArray(String[]::new))))
                .as("classes of this project outside " + allowed);
        return noClasses().that().resideInAnyPackage(own)
                .should().dependOnClassesThat(elsewhere)
                .because("a pattern is copied alone: its folders (plus support, and what a plug-in builds on) and one addBundle line");
    }

    /** No class of {@code support} depends on a class of this project outside {@code support}. */
    static ArchRule ruleSupportStandsAlone() {
        return noClasses().that().resideInAPackage(ROOT + "." + SUPPORT + "..")
                .should().dependOnClassesThat(resideInAPackage(ROOT + "..").and(not(resideInAPackage(ROOT + "." + SUPPORT + ".."))))
                .because("support is copied with any pattern, so it can need nothing else of the project");
    }
}
