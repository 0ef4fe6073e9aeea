package com.example.threading.longpoll.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/cluster (Redis + two instances + HAProxy) without a Docker engine, which the build machines lack: the compose
 * file parses, sets only variables config.yml reads, builds the repository's Dockerfile, and HAProxy balances over
 * both instances with a server timeout above the longest poll.
 */
class ClusterComposeTest {

    private static final Path CLUSTER = Path.of("docs", "cluster");

    @Test
    void theComposeFileSetsOnlyVariablesThatConfigYmlReads() throws IOException {
        JsonNode compose = new YAMLMapper().readTree(CLUSTER.resolve("docker-compose.yml").toFile());
        String config = Files.readString(Path.of("config.yml"));
        JsonNode services = compose.get("services");
        assertThat(services.has("redis")).isTrue();
        assertThat(services.get("redis").get("command").toString()).contains("appendonly");

        List<String> instances = new ArrayList<>();
        services.fields().forEachRemaining(service -> {
            if (service.getValue().has("build")) {
                instances.add(service.getKey());
            }
        });
        assertThat(instances).containsExactly("app1", "app2");
        for (String instance : instances) {
            JsonNode app = services.get(instance);
            assertThat(CLUSTER.resolve(app.get("build").asText()).resolve("Dockerfile")).exists();
            JsonNode environment = app.get("environment");
            environment.fieldNames().forEachRemaining(name ->
                    assertThat(config).as("config.yml reads %s", name).contains("${" + name + ":-"));
            assertThat(environment.get("EVENTS_STREAM").asText()).isEqualTo("redis");
            assertThat(environment.get("EVENTS_REDIS_URI").asText()).isEqualTo("redis://redis:6379");
        }
        assertThat(services.get("lb").get("ports").get(0).asText()).startsWith("127.0.0.1:");
    }

    @Test
    void haproxyBalancesOverBothInstancesWithATimeoutAboveTheLongestPoll() throws IOException {
        String haproxy = Files.readString(CLUSTER.resolve("haproxy.cfg"));
        assertThat(haproxy).contains("balance roundrobin");
        assertThat(haproxy).contains("server app1 app1:8080").contains("server app2 app2:8080");
        Matcher timeout = Pattern.compile("timeout server (\\d+)s").matcher(haproxy);
        assertThat(timeout.find()).isTrue();
        // config.yml's events.maxTimeout default: a parked poll may last that long.
        Matcher maxTimeout = Pattern.compile("EVENTS_MAX_TIMEOUT:-(\\d+)s").matcher(Files.readString(Path.of("config.yml")));
        assertThat(maxTimeout.find()).isTrue();
        assertThat(Integer.parseInt(timeout.group(1))).isGreaterThan(Integer.parseInt(maxTimeout.group(1)));
    }
}
