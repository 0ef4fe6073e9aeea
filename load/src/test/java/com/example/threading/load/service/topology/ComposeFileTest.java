package com.example.threading.load.service.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The compose file read as docker compose reads it: interpolation, the services' parts, and the repository's own file. */
class ComposeFileTest {

    private static final Path DEPLOYED = Path.of("..", "deploy", "docker-compose.yml");

    @Test
    void interpolatesLikeCompose() {
        Map<String, String> shell = Map.of("SET", "value", "EMPTY", "");
        assertThat(ComposeFile.interpolate("a ${SET} b $SET c", shell)).isEqualTo("a value b value c");
        assertThat(ComposeFile.interpolate("${UNSET:-fallback} ${EMPTY:-fallback} ${EMPTY-kept}", shell)).isEqualTo("fallback fallback ");
        assertThat(ComposeFile.interpolate("${SET:?needed} costs $$5", shell)).isEqualTo("value costs $5");
        assertThat(ComposeFile.interpolate("${UNSET}", shell)).isEmpty();
        assertThatThrownBy(() -> ComposeFile.interpolate("${EMPTY:?set EMPTY to a secret}", shell))
                .hasMessageContaining("EMPTY").hasMessageContaining("set EMPTY to a secret");
        assertThatThrownBy(() -> ComposeFile.interpolate("cost $(date)", shell)).hasMessageContaining("invalid interpolation");
    }

    @Test
    void readsEveryPartATopologyNeeds(@TempDir Path folder) throws IOException {
        Path file = folder.resolve("compose.yml");
        Files.writeString(file, """
                services:
                  cache:
                    image: docker.io/library/redis:7.0@sha256:abc
                    command: redis-server --appendonly yes
                  web:
                    build:
                      context: ../app
                    environment:
                      - A=1
                      - TOKEN=${TOKEN:?no token}
                    depends_on: {cache: {condition: service_started}}
                  lb:
                    image: haproxy:2.6
                    ports: ["127.0.0.1:8080:80/tcp"]
                    volumes: ["./lb.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro"]
                    ulimits: {nofile: 4096}
                """);
        ComposeFile compose = ComposeFile.read(file, Map.of("TOKEN", "t0k"));
        assertThat(compose.services()).extracting(ComposeFile.Service::name).containsExactly("cache", "web", "lb");
        assertThat(compose.service("cache").command()).containsExactly("redis-server", "--appendonly", "yes");
        assertThat(Topology.imageName(compose.service("cache").image().orElseThrow())).isEqualTo("redis");
        ComposeFile.Service web = compose.service("web");
        assertThat(web.buildContext()).contains(folder.resolve("../app").normalize());
        assertThat(web.environment()).containsExactly(Map.entry("A", "1"), Map.entry("TOKEN", "t0k"));
        assertThat(web.dependsOn()).containsExactly("cache");
        ComposeFile.Service lb = compose.service("lb");
        assertThat(Topology.containerPort(lb.ports().get(0))).isEqualTo("80");
        assertThat(lb.nofile()).contains(new ComposeFile.FileLimit(4096, 4096));
        assertThatThrownBy(() -> ComposeFile.read(file, Map.of())).hasMessageContaining("no token");
    }

    @Test
    void theDeployedFileNeedsTheAuthSecretAndGivesTheBalancerItsFileLimit() throws IOException {
        assertThatThrownBy(() -> ComposeFile.read(DEPLOYED, Map.of())).hasMessageContaining("EVENTS_AUTH_SECRET");
        ComposeFile compose = ComposeFile.read(DEPLOYED, Map.of("EVENTS_AUTH_SECRET", "secret"));
        assertThat(compose.services()).extracting(ComposeFile.Service::name).containsExactly("redis", "app1", "app2", "lb");
        assertThat(compose.service("app1").environment()).containsEntry("EVENTS_AUTH_SECRET", "secret").containsEntry("EVENTS_AUTH", "jwt")
                .containsEntry("EVENTS_REDIS_URI", "redis://redis:6379");
        assertThat(compose.service("app1").buildContext()).contains(Path.of("..").toAbsolutePath().normalize());
        assertThat(compose.service("lb").nofile()).contains(new ComposeFile.FileLimit(20000, 20000));
    }
}
