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
 * The Dockerfile read as text, against what the build and the configuration produce: jar path, config file, ports,
 * health check, user, the build arguments of its bases. The image itself is built and run by the image check
 * ({@code deploy/image/check}, which CI runs).
 */
class DockerfileTest {

    private static final String DOCKERFILE = read(Path.of("Dockerfile"));
    private static final String POM = read(Path.of("pom.xml"));
    private static final String CONFIG = read(Path.of("config.yml"));

    @Test
    void buildsInOneStageAndRunsOnAJreInAnotherEachBaseABuildArgument() {
        List<String> froms = DOCKERFILE.lines().filter(l -> l.startsWith("FROM ")).toList();
        assertThat(froms).containsExactly("FROM ${BUILD_IMAGE} AS build", "FROM ${RUNTIME_IMAGE}");
        assertThat(group(DOCKERFILE, "\\nARG BUILD_IMAGE=(\\S+)")).startsWith("maven:");
        assertThat(group(DOCKERFILE, "\\nARG RUNTIME_IMAGE=(\\S+)")).contains("-jre@");
        assertThat(DOCKERFILE).contains("RUN mvn -B -q package");
    }

    @Test
    void theBuildStageCopiesEveryFolderThePomReads() {
        Matcher directory = Pattern.compile("<directory>([^<$]+)</directory>").matcher(POM);
        List<String> folders = new java.util.ArrayList<>();
        while (directory.find()) {
            folders.add(directory.group(1).split("/")[0]);
        }
        assertThat(folders).contains("src", "docs");
        for (String folder : folders) {
            assertThat(DOCKERFILE).as("the build stage copies %s/", folder).containsPattern("\\nCOPY " + folder + " \\./" + folder + "\\n");
        }
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
        int bases = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).matches("^ARG \\w+_IMAGE=.*")) {
                continue;
            }
            bases++;
            Matcher base = Pattern.compile("^ARG \\w+_IMAGE=(\\S+?)@sha256:[0-9a-f]{64}$").matcher(lines.get(i));
            assertThat(base.matches()).as("pinned by digest: %s", lines.get(i)).isTrue();
            assertThat(lines.get(i - 1)).as("tag comment above %s", lines.get(i)).isEqualTo("# " + base.group(1));
        }
        assertThat(bases).isEqualTo(2);
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
