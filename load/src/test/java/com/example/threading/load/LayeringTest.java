package com.example.threading.load;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.report.Report;
import com.example.threading.load.service.LayeringViolationFixture;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The load tool's layers (see package-info.java) depend on each other one way only, checked on the compiled
 * classes, so a fully qualified name or an annotation counts as much as an import:
 * <pre>
 *   load (LoadTool) → scenario (+ one package per experiment) → report → engine (recording ← http ← jvm, traffic) → service
 * </pre>
 * A layer may use any layer below it, never one above; experiments never use each other; there are no cycles.
 */
class LayeringTest {

    private static final String TOOL = "com.example.threading.load";

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(TOOL);

    private static final ArchRule LAYERS = layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("tool").definedBy(TOOL)
            .layer("scenario").definedBy(TOOL + ".scenario..")
            .layer("report").definedBy(TOOL + ".report..")
            .layer("engine").definedBy(TOOL + ".engine..")
            .layer("service").definedBy(TOOL + ".service..")
            .whereLayer("tool").mayNotBeAccessedByAnyLayer()
            .whereLayer("scenario").mayOnlyBeAccessedByLayers("tool")
            .whereLayer("report").mayOnlyBeAccessedByLayers("tool", "scenario")
            .whereLayer("engine").mayOnlyBeAccessedByLayers("tool", "scenario", "report")
            .whereLayer("service").mayOnlyBeAccessedByLayers("tool", "scenario", "report", "engine");

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        LAYERS.check(MAIN);
    }

    @Test
    void theEnginesRoomsDependOneWay() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("recording").definedBy(TOOL + ".engine.recording")
                .layer("http").definedBy(TOOL + ".engine.http")
                .layer("jvm").definedBy(TOOL + ".engine.jvm")
                .layer("traffic").definedBy(TOOL + ".engine.traffic")
                .whereLayer("jvm").mayNotBeAccessedByAnyLayer()
                .whereLayer("traffic").mayNotBeAccessedByAnyLayer()
                .whereLayer("http").mayOnlyBeAccessedByLayers("jvm", "traffic")
                .whereLayer("recording").mayOnlyBeAccessedByLayers("http", "jvm", "traffic")
                .check(MAIN);
    }

    @Test
    void everyClassIsInALayer() {
        classes().should().resideInAnyPackage(TOOL, TOOL + ".scenario..", TOOL + ".report..", TOOL + ".engine..", TOOL + ".service..")
                .check(MAIN);
    }

    @Test
    void experimentsNeverUseEachOther() {
        slices().matching(TOOL + ".scenario.(*)..").should().notDependOnEachOther().check(MAIN);
    }

    @Test
    void whatTheExperimentsShareUsesNoneOfThem() {
        noClasses().that().resideInAPackage(TOOL + ".scenario").should().dependOnClassesThat().resideInAPackage(TOOL + ".scenario.*..")
                .check(MAIN);
    }

    @Test
    void thePackagesFormNoCycle() {
        slices().matching(TOOL + ".(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void anArrowBackUpIsCaught() {
        JavaClasses withViolation = new ClassFileImporter().importClasses(LayeringViolationFixture.class, Report.class, LoadTool.class);
        EvaluationResult result = LAYERS.evaluate(withViolation);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains(LayeringViolationFixture.class.getName()).contains(Report.class.getName());
    }

    @Test
    void everyPackageSaysWhatItHoldsAndWhatItMayDependOn() throws IOException {
        Path root = Path.of("src", "main", "java", "com", "example", "threading", "load");
        Set<Path> packages = new TreeSet<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(file -> file.toString().endsWith(".java")).forEach(file -> packages.add(file.getParent()));
        }
        assertThat(packages).as("load, scenario, its experiments, report, engine and its four rooms, service").hasSizeGreaterThanOrEqualTo(9);
        for (Path folder : packages) {
            Path info = folder.resolve("package-info.java");
            assertThat(info).as("package-info.java in " + folder).isRegularFile();
            String text = Files.readString(info);
            if (!folder.equals(root)) {
                assertThat(text).as(info.toString()).contains("May depend on");
            }
        }
        assertThat(List.copyOf(packages)).contains(root.resolve("scenario").resolve("wave"));
    }
}
