package com.example.threading.load.scenario.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The probe's JVM gets the shortest-pause collector its JDK has, checked by starting that JVM. */
class ProbeJvmTest {

    @Test
    void generationalZgcFrom21SingleGenerationBefore() {
        assertThat(ProbeJvm.collectorOptions(17)).containsExactly("-XX:+UseZGC");
        assertThat(ProbeJvm.collectorOptions(21)).containsExactly("-XX:+UseZGC", "-XX:+ZGenerational");
        assertThat(ProbeJvm.collectorOptions(22)).containsExactly("-XX:+UseZGC", "-XX:+ZGenerational");
        assertThat(ProbeJvm.collectorOptions(23)).containsExactly("-XX:+UseZGC");
        assertThat(ProbeJvm.collectorOptions(25)).containsExactly("-XX:+UseZGC");
        assertThat(ProbeJvm.collectorName(17)).startsWith("single-generation ZGC").contains("21");
        assertThat(ProbeJvm.collectorName(25)).isEqualTo("generational ZGC");
    }

    @Test
    void readsTheFeatureReleaseOfAVersion() {
        assertThat(ProbeJvm.feature("17.0.15")).isEqualTo(17);
        assertThat(ProbeJvm.feature("25")).isEqualTo(25);
        assertThat(ProbeJvm.feature("21.0.2+13-LTS")).isEqualTo(21);
        assertThat(ProbeJvm.feature("1.8.0_402")).isEqualTo(8);
    }

    @Test
    void theToolsOwnJdkGetsZgcWithASmallHeap() throws Exception {
        ProbeJvm jvm = ProbeJvm.choose(Path.of(System.getProperty("java.home")), List.of(), 0);

        assertThat(jvm.feature()).isEqualTo(Runtime.version().feature());
        assertThat(jvm.options()).containsAll(ProbeJvm.BASE).containsAll(ProbeJvm.collectorOptions(jvm.feature()));
        assertThat(jvm.collector()).isEqualTo(ProbeJvm.collectorName(jvm.feature()));
        assertThat(Files.isExecutable(jvm.java())).isTrue();
    }

    @Test
    void aNewerJdkGetsGenerationalZgc() throws Exception {
        Optional<Path> newer = newestJdkFrom21();
        Assumptions.assumeTrue(newer.isPresent(), "no JDK 21+ under /usr/lib/jvm");
        ProbeJvm jvm = ProbeJvm.choose(newer.get(), List.of(), 0);

        assertThat(jvm.feature()).isGreaterThanOrEqualTo(21);
        assertThat(jvm.collector()).isEqualTo("generational ZGC");
        assertThat(jvm.options()).contains("-XX:+UseZGC");
    }

    @Test
    void aPriorityOtherThanTheDefaultStartsItThroughNice() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        assertThat(ProbeJvm.choose(java, List.of("-Xmx32m"), -10).launcher()).containsExactly("nice", "-n", "-10", java.toString());
        assertThat(ProbeJvm.choose(java, List.of("-Xmx32m"), 0).launcher()).containsExactly(java.toString());
    }

    @Test
    void givenOptionsAreTakenAsTheyAre() throws Exception {
        ProbeJvm jvm = ProbeJvm.choose(Path.of(System.getProperty("java.home"), "bin", "java"), List.of("-Xmx32m", "-XX:+UseSerialGC"), 0);

        assertThat(jvm.options()).containsExactly("-Xmx32m", "-XX:+UseSerialGC");
        assertThat(jvm.collector()).contains("--probe-jvm-options");
    }

    private static Optional<Path> newestJdkFrom21() throws Exception {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        List<Path> candidates = new ArrayList<>();
        try (Stream<Path> folders = Files.list(jvms)) {
            folders.filter(folder -> Files.isExecutable(folder.resolve("bin").resolve("java"))).forEach(candidates::add);
        }
        Optional<Path> newest = Optional.empty();
        int newestFeature = 20;
        for (Path candidate : candidates) {
            Path release = candidate.resolve("release");
            if (!Files.isRegularFile(release)) {
                continue;
            }
            Optional<String> version = Files.readAllLines(release).stream().filter(line -> line.startsWith("JAVA_VERSION="))
                    .map(line -> line.substring("JAVA_VERSION=".length()).replace("\"", "")).findFirst();
            if (version.isPresent() && ProbeJvm.feature(version.get()) > newestFeature) {
                newestFeature = ProbeJvm.feature(version.get());
                newest = Optional.of(candidate);
            }
        }
        return newest;
    }
}
