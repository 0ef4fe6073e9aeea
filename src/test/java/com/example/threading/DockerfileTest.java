package com.example.threading;

import static com.example.threading.testing.RepositoryFiles.group;
import static com.example.threading.testing.RepositoryFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * No Docker engine runs on the build machines, so this keeps the Dockerfile consistent with what the
 * build and the configuration really produce: jar path, config file, ports, health check, user.
 */
class DockerfileTest {

    private static final String DOCKERFILE = read(Path.of("Dockerfile"));
    private static final String POM = read(Path.of("pom.xml"));
    private static final String CONFIG = read(Path.of("config.yml"));

    @Test
    void buildsInOneStageAndRunsOnAJreInAnother() {
        List<String> froms = DOCKERFILE.lines().filter(l -> l.startsWith("FROM ")).toList();
        assertThat(froms).hasSize(2);
        assertThat(froms.get(0)).contains("maven").contains(" AS build");
        assertThat(froms.get(1)).contains("-jre");
        assertThat(DOCKERFILE).contains("RUN mvn -B -q package");
    }

    @Test
    void copiesAndRunsTheJarTheBuildProduces() {
        String jar = "target/" + group(POM, "<finalName>([^<]+)</finalName>") + ".jar";
        assertThat(jar).isEqualTo("target/threading-reference.jar");
        assertThat(DOCKERFILE).contains("COPY --from=build /build/" + jar + " /app/threading-reference.jar");
        assertThat(DOCKERFILE).contains("COPY config.yml /app/config.yml");
        assertThat(DOCKERFILE).contains("-jar /app/threading-reference.jar server /app/config.yml");
    }

    @Test
    void exposesBothConfiguredPortsAndChecksHealthOnTheAdminPort() {
        String appPort = group(CONFIG, "port: \\$\\{APP_PORT:-(\\d+)}");
        String adminPort = group(CONFIG, "port: \\$\\{ADMIN_PORT:-(\\d+)}");
        assertThat(DOCKERFILE).contains("EXPOSE " + appPort + " " + adminPort);
        assertThat(DOCKERFILE).contains("APP_PORT=" + appPort).contains("ADMIN_PORT=" + adminPort);
        // Liveness on /ping: /healthcheck is readiness and turns unhealthy while a pool is saturated.
        assertThat(DOCKERFILE).containsPattern("HEALTHCHECK [^\\n]*\\\\\\n\\s+CMD curl -fsS http://127\\.0\\.0\\.1:" + adminPort + "/ping ");
        assertThat(DOCKERFILE).doesNotContain("/healthcheck > ");
    }

    @Test
    void pinsEveryBaseImageByDigestWithItsTagInTheCommentAbove() {
        List<String> lines = DOCKERFILE.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).startsWith("FROM ")) {
                continue;
            }
            Matcher from = Pattern.compile("^FROM (\\S+?)@sha256:[0-9a-f]{64}( AS \\w+)?$").matcher(lines.get(i));
            assertThat(from.matches()).as("pinned by digest: %s", lines.get(i)).isTrue();
            assertThat(lines.get(i - 1)).as("tag comment above %s", lines.get(i)).isEqualTo("# " + from.group(1));
        }
    }

    @Test
    void keepsTheAdminConnectorOnTheContainersLoopbackUnlessOpened() {
        assertThat(DOCKERFILE).contains("ADMIN_BIND_HOST=127.0.0.1").doesNotContain("ADMIN_BIND_HOST=0.0.0.0 \\");
        assertThat(DOCKERFILE).contains("APP_BIND_HOST=0.0.0.0");
        assertThat(DOCKERFILE).doesNotContain("(see README)").contains("docs/operations.md");
    }

    @Test
    void configuresThroughEnvironmentVariablesThatConfigYmlReads() {
        for (String variable : List.of("APP_BIND_HOST", "APP_PORT", "ADMIN_BIND_HOST", "ADMIN_PORT")) {
            assertThat(CONFIG).contains("${" + variable + ":-");
            assertThat(DOCKERFILE).contains(variable + "=");
        }
    }

    @Test
    void runsAsANonRootUser() {
        String user = group(DOCKERFILE, "\\nUSER (\\S+)");
        assertThat(user).isNotIn("root", "0");
        assertThat(DOCKERFILE).contains("useradd --system --uid 10001");
    }
}
