package com.example.threading.load.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.example.threading.load.LoadTool;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Runs a scenario in this JVM against the real service jar and checks what every report must hold. */
public final class ReportAssertions {

    private ReportAssertions() {
    }

    /** Fails with a clear message when the service jar has not been built. */
    public static void requireServiceJar() {
        Path jar = Path.of("..", "target", "threading-reference.jar");
        if (!Files.isRegularFile(jar)) {
            fail("The service jar " + jar.toAbsolutePath().normalize() + " is missing: the load tool's tests start it as a child "
                    + "process. Build it first from the repository root: mvn -B verify (or mvn -B package -DskipTests).");
        }
    }

    /** Runs {@code scenario args} with --out below {@code out}; asserts exit 0 and returns the run's folder. */
    public static Path run(Path out, String scenario, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(scenario, "--out", out.toString(), "--no-progress"));
        all.addAll(List.of(args));
        int status = LoadTool.run(all.toArray(String[]::new));
        assertThat(status).as("exit status of %s", all).isZero();
        try (Stream<Path> runs = Files.list(out)) {
            List<Path> folders = runs.filter(Files::isDirectory).filter(p -> p.getFileName().toString().startsWith(scenario + "-")).toList();
            assertThat(folders).as("one run folder").hasSize(1);
            return folders.get(0);
        }
    }

    /** report.md, results.json, PNG plots and one .hlog per phase exist and are not empty; returns results.json. */
    public static JsonNode assertReportFiles(Path folder) throws IOException {
        assertThat(folder.resolve("report.md")).isNotEmptyFile();
        assertThat(folder.resolve("results.json")).isNotEmptyFile();
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> pngs = files.filter(p -> p.toString().endsWith(".png")).toList();
            assertThat(pngs).as("plots").isNotEmpty();
            for (Path png : pngs) {
                byte[] bytes = Files.readAllBytes(png);
                assertThat(bytes.length).as(png.toString()).isGreaterThan(1000);
                assertThat(new String(bytes, 1, 3, java.nio.charset.StandardCharsets.US_ASCII)).as("PNG signature of " + png).isEqualTo("PNG");
            }
        }
        JsonNode results = new ObjectMapper().readTree(folder.resolve("results.json").toFile());
        String markdown = Files.readString(folder.resolve("report.md"));
        assertThat(markdown).contains("## Machine and JDK").contains("## Configuration").contains("| cores |");
        for (JsonNode phase : results.path("phases")) {
            assertThat(folder.resolve(phase.path("histogramLog").asText())).isNotEmptyFile();
            assertConsistent(phase);
        }
        return results;
    }

    /**
     * Every request is accounted for exactly once (sent = sum of outcomes), the per-second intervals add up to
     * the totals, the histogram holds every 2xx, and the percentiles are ordered.
     */
    public static void assertConsistent(JsonNode phase) {
        String name = phase.path("name").asText();
        long sent = phase.path("sent").asLong();
        long sum = 0;
        for (JsonNode count : phase.path("outcomes")) {
            assertThat(count.asLong()).as("%s outcome count", name).isNotNegative();
            sum += count.asLong();
        }
        assertThat(sum).as("%s: outcomes add up to sent", name).isEqualTo(sent);
        long ok = phase.path("outcomes").path("OK").asLong();
        long intervalOk = 0;
        long intervalErrors = 0;
        for (JsonNode interval : phase.path("intervals")) {
            intervalOk += interval.path("ok").asLong();
            intervalErrors += interval.path("rejected503").asLong() + interval.path("otherErrors").asLong();
        }
        assertThat(intervalOk).as("%s: intervals add up to the 2xx", name).isEqualTo(ok);
        long unavailable = phase.path("outcomes").path("UNAVAILABLE_501").asLong();
        long unanswered = phase.path("outcomes").path("UNANSWERED").asLong();
        assertThat(intervalErrors + unanswered).as("%s: intervals add up to the errors", name).isEqualTo(sent - ok - unavailable);
        JsonNode latency = phase.path("latencyMs");
        assertThat(latency.path("count").asLong()).as("%s: histogram holds every 2xx", name).isEqualTo(ok);
        double[] ordered = {latency.path("min").asDouble(), latency.path("p50").asDouble(), latency.path("p90").asDouble(),
                latency.path("p99").asDouble(), latency.path("p999").asDouble(), latency.path("max").asDouble()};
        for (int i = 1; i < ordered.length; i++) {
            assertThat(ordered[i]).as("%s: percentiles ordered", name).isGreaterThanOrEqualTo(ordered[i - 1]);
        }
        assertThat(latency.path("mean").asDouble()).as("%s: mean within min..max", name).isBetween(ordered[0], ordered[5]);
    }

    /** The phase of this name in results.json. */
    public static JsonNode phase(JsonNode results, String name) {
        for (JsonNode phase : results.path("phases")) {
            if (phase.path("name").asText().equals(name)) {
                return phase;
            }
        }
        throw new AssertionError("no phase " + name + " in " + results.path("phases").findValuesAsText("name"));
    }

    /** Whether the JVM running the tests (and so the child service) has virtual threads. */
    public static boolean virtualThreads() {
        return Runtime.version().feature() >= 21;
    }
}
