package com.example.threading.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The events wing's rooms and the rules that keep them apart, checked on the compiled classes: the core (the stream SPI,
 * the histories, the hub) knows no HTTP and no framework; the transports do not know each other; the plug-ins see only
 * what they build on; nothing depends on the wiring; the packages form no cycle; every package says what it holds
 * (a {@code package-info}) in at most {@value #MAX_CLASSES} classes; and the stream SPI's public methods take and give
 * only public types, so a plug-in can implement them. Each rule is shown failing once on a fixture of the test sources.
 */
class EventsLayersTest {

    static final String EVENTS = PatternPackagesTest.ROOT + ".events";
    /** Packages that know no HTTP, no servlet container and no Dropwizard. */
    static final List<String> CORE = List.of(EVENTS + ".stream", EVENTS + ".history", EVENTS + ".hub");
    /** The ways onto the wire; each stands alone beside the others. */
    static final List<String> TRANSPORTS = List.of(EVENTS + ".longpoll", EVENTS + ".sse", EVENTS + ".websocket",
            EVENTS + ".publish");
    /** Most top-level classes in one package of the wing. */
    static final int MAX_CLASSES = 20;

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(EVENTS);

    static Stream<String> transports() {
        return TRANSPORTS.stream();
    }

    @Test
    void theCoreKnowsNoHttpNoContainerAndNoDropwizard() {
        ruleCoreKnowsNoHttp().check(MAIN);
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aTransportUsesNoOtherTransport(String transport) {
        ruleTransportStandsAlone(transport).check(MAIN);
    }

    @Test
    void redisSeesOnlyTheStreamSpi() {
        noClasses().that().resideInAPackage(EVENTS + ".stream.redis")
                .should().dependOnClassesThat().resideInAnyPackage(EVENTS, EVENTS + ".history", EVENTS + ".hub",
                        EVENTS + ".http", EVENTS + ".access..", EVENTS + ".longpoll", EVENTS + ".sse", EVENTS + ".websocket",
                        EVENTS + ".publish")
                .check(MAIN);
    }

    @Test
    void jwtSeesOnlyAccessAndTheStreamSpi() {
        noClasses().that().resideInAPackage(EVENTS + ".access.jwt")
                .should().dependOnClassesThat().resideInAnyPackage(EVENTS, EVENTS + ".stream.config", EVENTS + ".stream.redis",
                        EVENTS + ".history", EVENTS + ".hub", EVENTS + ".http", EVENTS + ".longpoll", EVENTS + ".sse",
                        EVENTS + ".websocket", EVENTS + ".publish")
                .check(MAIN);
    }

    @Test
    void nothingDependsOnTheWiring() {
        noClasses().that().resideInAPackage(EVENTS + ".*..")
                .should().dependOnClassesThat().resideInAPackage(EVENTS)
                .because("the wiring (bundle, configuration) ties the roles together; a role that reads it is a cycle")
                .check(MAIN);
    }

    @Test
    void theWingsPackagesFormNoCycle() {
        ruleNoCycles().check(MAIN);
    }

    @Test
    void everyPackageHasAPackageInfoAndAtMostTwentyClasses() throws IOException {
        Path root = Path.of("src", "main", "java", "com", "example", "threading", "events");
        List<String> problems = new ArrayList<>();
        try (Stream<Path> folders = Files.walk(root)) {
            for (Path folder : folders.filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.list(folder)) {
                    List<Path> sources = files.filter(file -> file.toString().endsWith(".java")).toList();
                    long classes = sources.stream().filter(file -> !file.endsWith("package-info.java")).count();
                    if (sources.stream().noneMatch(file -> file.endsWith("package-info.java"))) {
                        problems.add(folder + " has no package-info.java");
                    }
                    if (classes > MAX_CLASSES) {
                        problems.add(folder + " holds " + classes + " classes");
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void theStreamSpisPublicMethodsTakeAndGiveOnlyPublicTypes() {
        List<String> hidden = new ArrayList<>();
        for (JavaClass owner : MAIN) {
            if (!owner.getPackageName().equals(EVENTS + ".stream") || !owner.getModifiers().contains(JavaModifier.PUBLIC)) {
                continue;
            }
            for (JavaMethod method : owner.getMethods()) {
                if (!method.getModifiers().contains(JavaModifier.PUBLIC)) {
                    continue;
                }
                List<JavaClass> types = new ArrayList<>(method.getRawParameterTypes());
                types.add(method.getRawReturnType());
                types.stream().filter(type -> type.getPackageName().startsWith(PatternPackagesTest.ROOT))
                        .filter(type -> !type.getModifiers().contains(JavaModifier.PUBLIC))
                        .forEach(type -> hidden.add(method.getFullName() + " uses " + type.getName()));
            }
        }
        assertThat(hidden).as("a plug-in in another package could not implement or call these").isEmpty();
    }

    @Test
    void theRulesCatchWhatTheyForbid() throws ClassNotFoundException {
        JavaClasses hubWithServlet = new ClassFileImporter().importClasses(Class.forName(EVENTS + ".hub.ServletInHubFixture"));
        JavaClasses crossing = new ClassFileImporter().importClasses(Class.forName(EVENTS + ".sse.OtherTransportFixture"));
        JavaClasses cycle = new ClassFileImporter().importClasses(Class.forName(EVENTS + ".stream.HubInStreamFixture"),
                com.example.threading.events.hub.EventHub.class, com.example.threading.events.stream.EventSubscriber.class);

        assertThat(ruleCoreKnowsNoHttp().evaluate(hubWithServlet).getFailureReport().toString())
                .contains("ServletInHubFixture").contains("jakarta.servlet");
        assertThat(ruleTransportStandsAlone(EVENTS + ".sse").evaluate(crossing).getFailureReport().toString())
                .contains("OtherTransportFixture").contains("LongPollTransport");
        assertThat(ruleNoCycles().evaluate(cycle).hasViolation()).isTrue();
    }

    static ArchRule ruleCoreKnowsNoHttp() {
        return noClasses().that().resideInAnyPackage(CORE.toArray(String[]::new))
                .should().dependOnClassesThat().resideInAnyPackage("jakarta.servlet..", "org.eclipse.jetty..", "io.dropwizard..")
                .because("the hub, its histories and the stream SPI are the same for every transport and every container");
    }

    static ArchRule ruleTransportStandsAlone(String transport) {
        return noClasses().that().resideInAPackage(transport)
                .should().dependOnClassesThat().resideInAnyPackage(
                        TRANSPORTS.stream().filter(other -> !other.equals(transport)).toArray(String[]::new))
                .because("a new transport touches only its own package and the wiring");
    }

    static ArchRule ruleNoCycles() {
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                return javaClass.getPackageName().startsWith(EVENTS)
                        ? SliceIdentifier.of(javaClass.getPackageName()) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the events wing's packages";
            }
        }).should().beFreeOfCycles();
    }
}
