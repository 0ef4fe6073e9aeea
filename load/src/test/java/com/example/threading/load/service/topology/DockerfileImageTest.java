package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a Dockerfile's final stage gives its process: the repository's own Dockerfile, and the forms the reader accepts. */
class DockerfileImageTest {

    private static final Map<String, Path> FILES = Map.of("/app/threading-reference.jar", Path.of("/repo/target/threading-reference.jar"),
            "/app/config.yml", Path.of("/repo/config.yml"));

    @Test
    void theRepositorysDockerfileRunsTheJarWithItsEnvironment() throws IOException {
        DockerfileImage image = DockerfileImage.read(Path.of("..", "Dockerfile"));
        assertThat(image.environment()).containsEntry("APP_BIND_HOST", "0.0.0.0").containsEntry("ADMIN_BIND_HOST", "127.0.0.1")
                .containsEntry("APP_PORT", "8080").containsEntry("ADMIN_PORT", "8081").containsEntry("JAVA_OPTS", "");
        assertThat(image.command(Path.of("/jdk/bin/java"), FILES, image.environment()))
                .containsExactly("/jdk/bin/java", "-jar", "/repo/target/threading-reference.jar", "server", "/repo/config.yml");
        assertThat(image.command(Path.of("java"), FILES, Map.of("JAVA_OPTS", " -Xmx256m  -Dx=1 ")))
                .containsExactly("java", "-Xmx256m", "-Dx=1", "-jar", "/repo/target/threading-reference.jar", "server", "/repo/config.yml");
    }

    @Test
    void onlyTheFinalStageCountsAndQuotesAndContinuationsAreTheShells(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("Dockerfile");
        Files.writeString(file, """
                FROM maven AS build
                ENV BUILD_ONLY=1
                FROM jre
                # a comment
                ENV A="two words" \\
                    B='single' C=plain D=""
                ENV LEGACY value with spaces
                ENTRYPOINT ["java", "-jar", "/app/threading-reference.jar"]
                """);
        DockerfileImage image = DockerfileImage.read(file);
        assertThat(image.environment()).containsOnly(Map.entry("A", "two words"), Map.entry("B", "single"), Map.entry("C", "plain"),
                Map.entry("D", ""), Map.entry("LEGACY", "value with spaces"));
        assertThat(image.command(Path.of("java"), FILES, Map.of())).containsExactly("java", "-jar", "/repo/target/threading-reference.jar");
        assertThatThrownBy(() -> image.command(Path.of("java"), Map.of(), Map.of())).hasMessageContaining("/app/threading-reference.jar");
    }

    @Test
    void refusesWhatItWouldHaveToGuess(@TempDir Path folder) throws IOException {
        Path shellForm = folder.resolve("shell");
        Files.writeString(shellForm, "FROM jre\nENTRYPOINT java -jar app.jar\n");
        assertThatThrownBy(() -> DockerfileImage.read(shellForm)).hasMessageContaining("exec-form");
        Path other = folder.resolve("other");
        Files.writeString(other, "FROM jre\nENTRYPOINT [\"sh\", \"-c\", \"exec java -jar $(ls /app/*.jar)\"]\n");
        assertThatThrownBy(() -> DockerfileImage.read(other).command(Path.of("java"), FILES, Map.of())).hasMessageContaining("cannot expand");
    }
}
