package com.example.threading.load.scenario.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The probe's own JVM: which {@code java} runs it, its JDK, and the options it runs with. Unless the command line
 * gives them, the options are a small fixed heap touched at start-up, C1 only (compiled early, no C2 compilations
 * later in the run) and the collector with the shortest pauses the JDK has: generational ZGC on 21 and later
 * ({@code -XX:+UseZGC -XX:+ZGenerational} on 21–22, where ZGC is single-generation by default; {@code -XX:+UseZGC}
 * from 23, where it is generational by default and from 24 the only mode), single-generation ZGC before 21. Each
 * choice is tried once ({@code java <options> -version}); a JVM that refuses it gets the Serial collector instead, and
 * {@link #collector()} says so. A negative {@code nice} starts it through {@code nice -n} at that scheduling priority
 * (root may raise a process's priority; for anyone else {@code nice} leaves it as it was, and the child reports the
 * priority it got): on a machine whose cores the server and the loaders share with it, its threads then get a core
 * as soon as they wake, as a probe on a machine of its own would.
 */
record ProbeJvm(Path java, String version, int feature, List<String> options, String collector, int nice) {

    /** Heap, start-up and compiler options for every JDK. */
    static final List<String> BASE = List.of("-Xms64m", "-Xmx64m", "-XX:+AlwaysPreTouch", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData");

    private static final Pattern VERSION = Pattern.compile("version \"([^\"]+)\"");

    ProbeJvm {
        options = List.copyOf(options);
    }

    /** The start of its command line: {@code nice -n <nice>} when the priority is not the default, then its java. */
    List<String> launcher() {
        return nice == 0 ? List.of(java.toString()) : List.of("nice", "-n", Integer.toString(nice), java.toString());
    }

    /** The collector options and what they give on a JDK of this feature release. */
    static List<String> collectorOptions(int feature) {
        if (feature >= 23) {
            return List.of("-XX:+UseZGC");
        }
        if (feature >= 21) {
            return List.of("-XX:+UseZGC", "-XX:+ZGenerational");
        }
        return List.of("-XX:+UseZGC");
    }

    /** In words, what {@link #collectorOptions} gives on that JDK. */
    static String collectorName(int feature) {
        return feature >= 21 ? "generational ZGC" : "single-generation ZGC (JDK " + feature + " has no generational ZGC; it came in 21)";
    }

    /**
     * The probe JVM on {@code java} (a java executable or a JDK folder): with {@code given} options when there are
     * any, else the choice above for its JDK, checked by starting it once; at scheduling priority {@code nice}.
     */
    static ProbeJvm choose(Path java, List<String> given, int nice) throws IOException, InterruptedException {
        Path executable = Files.isDirectory(java) ? java.resolve("bin").resolve("java") : java;
        String version = versionOf(executable, List.of()).orElseThrow(() -> new IOException(executable + " -version did not run"));
        int feature = feature(version);
        if (!given.isEmpty()) {
            return new ProbeJvm(executable, version, feature, given, "as given by --probe-jvm-options", nice);
        }
        List<String> options = new ArrayList<>(BASE);
        options.addAll(collectorOptions(feature));
        if (versionOf(executable, options).isPresent()) {
            return new ProbeJvm(executable, version, feature, options, collectorName(feature), nice);
        }
        List<String> serial = new ArrayList<>(BASE);
        serial.add("-XX:+UseSerialGC");
        return new ProbeJvm(executable, version, feature, serial, "Serial (this JVM refused " + String.join(" ", collectorOptions(feature)) + ")", nice);
    }

    /** The feature release of a version string: "17.0.15" → 17, "25" → 25, "1.8.0_402" → 8. */
    static int feature(String version) {
        String[] parts = version.split("[._+-]");
        int first = Integer.parseInt(parts[0]);
        return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
    }

    /** The version {@code java <options> -version} prints, empty when the JVM does not start with those options. */
    private static Optional<String> versionOf(Path java, List<String> options) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(options);
        command.add("-version");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return Optional.empty();
        }
        Matcher matcher = VERSION.matcher(output);
        return process.exitValue() == 0 && matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }
}
