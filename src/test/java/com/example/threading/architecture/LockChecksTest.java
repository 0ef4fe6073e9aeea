package com.example.threading.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The build's lock check (Error Prone's {@code GuardedBy}, an error in the main compile) shown failing: a real source
 * file, with one seeded bug (a lock removed), is compiled as the build compiles it, and must fail with the check's
 * message; the same file as it is must compile. The compile runs the JDK's own {@code javac} in a process of its own,
 * opened to the plug-in with the build's {@code .mvn/jvm.config}, against the compiled main classes.
 */
class LockChecksTest {

    private static final Path SOURCES = Path.of("src", "main", "java", "com", "example", "threading");

    @TempDir
    Path out;

    @Test
    void theSourcesAsTheyAreCompileWithTheCheck() throws Exception {
        Map<String, String> sources = new LinkedHashMap<>();
        for (String file : List.of("client/CallWindow.java", "events/hub/EventHub.java")) {
            sources.put(file, Files.readString(SOURCES.resolve(file)));
        }

        Compile compile = compile(sources);

        assertThat(compile.exitCode()).as(compile.output()).isZero();
    }

    /** One bug seeded in a main source file: {@code original} replaced by {@code seeded}. */
    record Seeded(String file, String bug, String original, String seeded) {
        @Override
        public String toString() {
            return file + ": " + bug;
        }
    }

    static Stream<Seeded> seededBugs() {
        return Stream.of(
                new Seeded("client/CallWindow.java", "the monitor taken off a read",
                        "    synchronized int started() {", "    int started() {"),
                // The lock and its release both gone. (A lock() removed with its finally { unlock(); } left is not
                // caught: the checker takes a try that releases the lock in its finally as holding it. The lock then
                // throws IllegalMonitorStateException at the first call, in every test that reaches it.)
                new Seeded("events/hub/EventHub.java", "the lock removed from admitTopics",
                        "        lock.lock();\n        try {\n            return topics.useAll(names, now());\n"
                                + "        } finally {\n            lock.unlock();\n        }",
                        "        return topics.useAll(names, now());"),
                new Seeded("events/hub/EventHub.java", "a guarded field read after the lock was released",
                        "            lock.unlock();\n        }\n        metrics.epochRestarts",
                        "            lock.unlock();\n        }\n        topics.size();\n        metrics.epochRestarts"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("seededBugs")
    void aSeededBugFailsTheCompile(Seeded seeded) throws Exception {
        String source = Files.readString(SOURCES.resolve(seeded.file()));
        assertThat(source).as("the lines the bug is seeded in").contains(seeded.original());

        Compile compile = compile(Map.of(seeded.file(), source.replace(seeded.original(), seeded.seeded())));

        assertThat(compile.exitCode()).as(seeded.bug() + ":\n" + compile.output()).isNotZero();
        assertThat(compile.output()).as(seeded.bug()).contains("[GuardedBy]")
                .contains(Path.of(seeded.file()).getFileName().toString());
    }

    /** Compiles {@code sources} (main source files by path, each with its text) with Error Prone, as the build does. */
    private Compile compile(Map<String, String> sources) throws IOException, InterruptedException {
        List<String> copies = new ArrayList<>();
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path copy = out.resolve("src").resolve(source.getKey());
            Files.createDirectories(copy.getParent());
            Files.writeString(copy, source.getValue());
            copies.add(copy.toString());
        }
        Path classes = out.resolve("classes");
        Files.createDirectories(classes);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "javac").toString());
        for (String option : Files.readAllLines(Path.of(".mvn", "jvm.config"))) {
            if (!option.isBlank()) {
                command.add("-J" + option.trim().replace(' ', '='));
            }
        }
        command.addAll(List.of("--release", "17", "-proc:none", "-XDcompilePolicy=simple",
                "--should-stop=ifError=FLOW", "-Xplugin:ErrorProne -XepDisableAllChecks -Xep:GuardedBy:ERROR",
                "-processorpath", CompileAloneTest.thirdPartyClassPath(),
                "-classpath", "target/classes" + File.pathSeparator + CompileAloneTest.thirdPartyClassPath(),
                "-implicit:none", "-d", classes.toString()));
        command.addAll(copies);
        Path log = out.resolve("javac-" + System.nanoTime() + ".txt");
        Process javac = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = javac.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            javac.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        if (!ended) {
            throw new IllegalStateException("javac did not end within 120 s:\n" + output);
        }
        return new Compile(javac.exitValue(), output);
    }

    private record Compile(int exitCode, String output) {
    }
}
