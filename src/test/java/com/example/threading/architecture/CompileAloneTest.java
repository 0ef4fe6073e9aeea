package com.example.threading.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a copier does: each pattern's sources (a plug-in with those of the packages it builds on, and {@code support}'s for the
 * patterns that use it, {@link PatternPackagesTest#USES_SUPPORT}), compiled with the JDK's compiler against this
 * build's third-party dependencies only — none of this project's other classes — must compile; so must
 * {@code support} alone. A failure names the file and the import that needs another package of the project.
 */
class CompileAloneTest {

    private static final Path SOURCES = Path.of("src", "main", "java");

    static Stream<String> patterns() {
        return PatternPackagesTest.PATTERNS.stream();
    }

    @ParameterizedTest
    @MethodSource("patterns")
    void compilesWithoutTheRestOfTheProject(String pattern, @TempDir Path out) throws IOException {
        List<String> packages = PatternPackagesTest.allowed(pattern);
        if (packages.stream().anyMatch(PatternPackagesTest.USES_SUPPORT::contains)) {
            packages.add(PatternPackagesTest.SUPPORT);
        }
        List<Path> sources = new ArrayList<>();
        for (String name : packages) {
            sources.addAll(sourcesOf(name));
        }
        assertThat(sourcesOf(pattern)).as("sources of " + pattern).isNotEmpty();

        List<String> errors = compile(sources, out);

        assertThat(errors).as("compiling " + pattern + " with only " + packages + " of this project").isEmpty();
    }

    @Test
    void supportCompilesAlone(@TempDir Path out) throws IOException {
        List<Path> sources = sourcesOf(PatternPackagesTest.SUPPORT);
        assertThat(sources).as("sources of support").isNotEmpty();

        assertThat(compile(sources, out)).as("compiling support alone").isEmpty();
    }

    @Test
    void anImportOfAnotherPackageFailsNamingIt(@TempDir Path out) throws IOException {
        Path source = out.resolve("src").resolve("Uses.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "package com.example.threading.work;\n"
                + "import com.example.threading.client.FanoutBundle;\n"
                + "final class Uses { String path = FanoutBundle.PATH; }\n");

        List<String> errors = compile(List.of(source), out.resolve("classes"));

        assertThat(errors).anySatisfy(error -> assertThat(error).contains("Uses.java").contains("com.example.threading.client"));
    }

    /** The package's own {@code .java} files, not those of its sub-packages. */
    private static List<Path> sourcesOf(String pattern) throws IOException {
        Path folder = SOURCES.resolve(Path.of("com", "example", "threading")).resolve(pattern.replace('.', File.separatorChar));
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** Compiles {@code sources} into {@code out}, on the class path minus this project's classes; the errors, one line each. */
    private static List<String> compile(List<Path> sources, Path out) throws IOException {
        Files.createDirectories(out);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("--release", "17", "-proc:none", "-d", out.toString(),
                    "-classpath", thirdPartyClassPath());
            boolean compiled = compiler.getTask(new StringWriter(), files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(sources)).call();
            List<String> errors = diagnostics.getDiagnostics().stream()
                    .filter(diagnostic -> diagnostic.getKind() == Diagnostic.Kind.ERROR)
                    .map(diagnostic -> diagnostic.getSource().getName() + ":" + diagnostic.getLineNumber() + ": "
                            + diagnostic.getMessage(Locale.ROOT).lines().findFirst().orElse("") + " | "
                            + lineOf(diagnostic))
                    .toList();
            if (!compiled && errors.isEmpty()) {
                return List.of("the compiler failed without an error diagnostic");
            }
            return errors;
        }
    }

    private static String lineOf(Diagnostic<? extends JavaFileObject> diagnostic) {
        try {
            List<String> lines = diagnostic.getSource().getCharContent(true).toString().lines().toList();
            long line = diagnostic.getLineNumber();
            return line >= 1 && line <= lines.size() ? lines.get((int) line - 1).trim() : "";
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * The test's class path without this project's own classes (target/classes, target/test-classes): surefire's
     * {@code surefire.test.class.path} (its {@code java.class.path} is one jar whose manifest names the rest). Also
     * {@code LockChecksTest}'s.
     */
    static String thirdPartyClassPath() {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        return Stream.of(classPath.split(File.pathSeparator))
                .filter(entry -> !entry.endsWith(File.separator + "classes") && !entry.endsWith(File.separator + "test-classes")
                        && !entry.endsWith("classes" + File.separator) && !entry.endsWith("test-classes" + File.separator))
                .collect(Collectors.joining(File.pathSeparator));
    }
}
