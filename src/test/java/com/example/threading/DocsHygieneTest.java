package com.example.threading;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What a reader has is this repository: the docs (pages and any text file beside them), the READMEs, config.yml, the poms, the Dockerfile
 * and the main sources (their javadoc and package-info) name no path outside it (the machine it was built on), no
 * issue number, no lock command around a documented command, and no account of who worked on it.
 */
class DocsHygieneTest {

    /** What points outside the repository or at how the team worked (the service's own /work/... paths do not). */
    private static final Pattern FORBIDDEN = Pattern.compile("/work/(locks|shared|main|wt|notes|\\.library)\\b"
            + "|\\.\\./shared|\\bflock |\\bissue #?\\d|design experiment|engineer|\\bthe lead\\b|other sessions",
            Pattern.CASE_INSENSITIVE);

    @Test
    void nothingPointsOutsideTheRepository() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files()) {
            List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher match = FORBIDDEN.matcher(lines.get(i));
                if (match.find()) {
                    found.add(file + ":" + (i + 1) + ": \"" + match.group() + "\" in " + lines.get(i).strip());
                }
            }
        }

        assertThat(found).as("references outside the repository").isEmpty();
    }

    @Test
    void theCheckReadsTheDocsAndTheSources() throws IOException {
        assertThat(files()).contains(Path.of("README.md"), Path.of("docs/longpoll.md"), Path.of("config.yml"),
                Path.of("src/main/java/com/example/threading/package-info.java"), Path.of("load/README.md"));
    }

    private static List<Path> files() throws IOException {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Path.of("config.yml"), Path.of("pom.xml"),
                Path.of("load/README.md"), Path.of("load/pom.xml"), Path.of("Dockerfile")));
        files.addAll(walk(Path.of("docs"), ""));
        files.addAll(walk(Path.of("src/main"), ""));
        files.addAll(walk(Path.of("load/src/main"), ""));
        return files;
    }

    private static List<Path> walk(Path root, String suffix) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(Files::isRegularFile).filter(path -> path.toString().endsWith(suffix))
                    .filter(DocsHygieneTest::isText).toList();
        }
    }

    private static boolean isText(Path path) {
        String name = path.getFileName().toString();
        return Stream.of(".java", ".md", ".yml", ".yaml", ".properties", ".xml", ".txt", ".cfg").anyMatch(name::endsWith);
    }
}
