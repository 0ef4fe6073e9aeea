package com.example.threading;

import static com.example.threading.testing.RepositoryFiles.group;
import static com.example.threading.testing.RepositoryFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.health.ReadinessBundle;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/ (Redis + two instances + HAProxy) read as text, since no Docker engine runs on the build machines: what the
 * compose file sets is what config.yml reads, HAProxy checks something the instances serve to it, publishing through it
 * and polling through it are wired to a JWT signed with a secret from the environment, and its connection limit fits the
 * file descriptors it is given. The load tool's topology
 * scenario runs the same files for real, in network namespaces.
 */
class DeployComposeTest {

    private static final Path DEPLOY = Path.of("deploy");
    private static final String CONFIG = read(Path.of("config.yml"));
    private static final String HAPROXY = read(DEPLOY.resolve("haproxy.cfg"));
    private static final String COMPOSE_TEXT = read(DEPLOY.resolve("docker-compose.yml"));
    private static final Pattern CURL = Pattern.compile("curl\\s[^\\n]*");

    @Test
    void theInstancesAreBuiltFromTheRepositoryAndSetOnlyVariablesThatConfigYmlReads() throws IOException {
        JsonNode services = compose().get("services");
        assertThat(services.get("redis").get("command").toString()).contains("appendonly");
        List<String> instances = instances(services);
        assertThat(instances).containsExactly("app1", "app2");
        for (String instance : instances) {
            JsonNode app = services.get(instance);
            assertThat(DEPLOY.resolve(app.get("build").asText()).resolve("Dockerfile")).exists();
            JsonNode environment = app.get("environment");
            environment.fieldNames().forEachRemaining(name ->
                    assertThat(CONFIG).as("config.yml reads %s", name).contains("${" + name + ":-"));
            assertThat(environment.get("EVENTS_STREAM").asText()).isEqualTo("redis");
            assertThat(environment.get("EVENTS_REDIS_URI").asText()).isEqualTo("redis://redis:6379");
            // The admin port (no authentication) stays on the instance's loopback, as the Dockerfile has it.
            assertThat(environment.has("ADMIN_BIND_HOST")).as(instance).isFalse();
            assertThat(app.has("ports")).as("%s publishes nothing", instance).isFalse();
        }
        JsonNode lbPorts = services.get("lb").get("ports");
        assertThat(lbPorts).hasSize(1);
        assertThat(lbPorts.get(0).asText()).startsWith("127.0.0.1:");
    }

    @Test
    void everyPollAndPublishThroughTheBalancerNeedsAJwtSignedWithASecretFromTheEnvironment() throws IOException {
        JsonNode services = compose().get("services");
        for (String instance : instances(services)) {
            JsonNode environment = services.get(instance).get("environment");
            assertThat(environment.path("EVENTS_AUTH").asText()).as(instance).isEqualTo("jwt");
            // ${VAR:?message}: compose refuses to start without it; never a literal secret in the file.
            assertThat(environment.path("EVENTS_AUTH_SECRET").asText()).as(instance)
                    .startsWith("${EVENTS_AUTH_SECRET:?").endsWith("}");
            assertThat(environment.has("EVENTS_PUBLISH_TOKEN")).as("%s: not used with jwt", instance).isFalse();
        }
        List<String> calls = curlsToEvents(COMPOSE_TEXT);
        assertThat(calls).as("the compose file's example publish and poll").hasSizeGreaterThanOrEqualTo(2);
        assertThat(calls).allMatch(line -> line.contains("Authorization: Bearer $TOKEN"));
    }

    @Test
    void everyDocumentedCallToTheEventsThroughTheBalancerCarriesAToken() {
        List<String> calls = new ArrayList<>();
        calls.addAll(curlsToEvents(section(read(Path.of("docs", "operations.md")), "## Deployment")));
        calls.addAll(curlsToEvents(section(read(Path.of("docs", "longpoll-redis.md")), "## Docker compose")));
        calls.addAll(curlsToEvents(section(read(Path.of("README.md")), "## Deployment")));
        assertThat(calls).as("documented calls to /events through the balancer").hasSizeGreaterThanOrEqualTo(4);
        assertThat(calls).allMatch(line -> line.contains("Authorization: Bearer $TOKEN"), "carry the token");
    }

    @Test
    void haproxyChecksReadinessOnTheApplicationPortItBalances() {
        String appPort = group(CONFIG, "port: \\$\\{APP_PORT:-(\\d+)}");
        String adminPort = group(CONFIG, "port: \\$\\{ADMIN_PORT:-(\\d+)}");
        assertThat(HAPROXY).contains("balance roundrobin");
        assertThat(HAPROXY).contains("option httpchk GET " + ReadinessBundle.PATH + "\n")
                .contains("http-check expect status 200");
        assertThat(HAPROXY).contains("server app1 app1:" + appPort + "\n").contains("server app2 app2:" + appPort + "\n");
        // The admin port is on each instance's loopback: a check there from the balancer's host always fails.
        assertThat(HAPROXY).doesNotContain("port " + adminPort).doesNotContain(":" + adminPort);
        assertThat(HAPROXY).containsPattern("default-server check [^\\n]*fall 2 rise 2");
    }

    @Test
    void haproxyAnswers503WithRetryAfterWhenNoInstanceIsReadyAndWaitsOutTheLongestPoll() {
        assertThat(HAPROXY).containsPattern("http-error status 503 content-type application/json string [^\\n]* hdr Retry-After \\d+\\n");
        int timeoutServer = Integer.parseInt(group(HAPROXY, "timeout server (\\d+)s"));
        int maxTimeout = Integer.parseInt(group(CONFIG, "EVENTS_MAX_TIMEOUT:-(\\d+)s"));
        assertThat(timeoutServer).isGreaterThan(maxTimeout);
    }

    @Test
    void haproxysConnectionLimitFitsTheFileDescriptorsTheComposeFileGivesIt() throws IOException {
        int maxconn = Integer.parseInt(group(HAPROXY, "\\n\\s+maxconn (\\d+)\\n"));
        JsonNode nofile = compose().get("services").get("lb").path("ulimits").path("nofile");
        assertThat(nofile.isObject()).as("lb: ulimits: nofile: {soft, hard} (not left to the host)").isTrue();
        int soft = nofile.get("soft").asInt();
        assertThat(nofile.get("hard").asInt()).isGreaterThanOrEqualTo(soft);
        // Two descriptors per proxied connection (client and server side), plus listeners, checks and HAProxy's own.
        assertThat(2 * maxconn + 200).as("descriptors maxconn %d needs", maxconn).isLessThanOrEqualTo(soft);
        assertThat(maxconn).as("room for a useful number of parked polls").isGreaterThanOrEqualTo(1000);
    }

    private static JsonNode compose() throws IOException {
        return new YAMLMapper().readTree(COMPOSE_TEXT);
    }

    private static List<String> instances(JsonNode services) {
        List<String> instances = new ArrayList<>();
        services.fields().forEachRemaining(service -> {
            if (service.getValue().has("build")) {
                instances.add(service.getKey());
            }
        });
        return instances;
    }

    /** Every {@code curl} line that calls {@code /events} (a publish or a poll). */
    private static List<String> curlsToEvents(String text) {
        List<String> calls = new ArrayList<>();
        Matcher curl = CURL.matcher(text);
        while (curl.find()) {
            if (curl.group().contains("/events")) {
                calls.add(curl.group());
            }
        }
        return calls;
    }

    /** The Markdown section that starts with the heading line {@code heading}, up to the next heading of its level. */
    private static String section(String markdown, String heading) {
        int start = markdown.indexOf("\n" + heading);
        assertThat(start).as("section %s", heading).isNotNegative();
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int end = markdown.indexOf("\n" + level, start + heading.length() + 1);
        return end < 0 ? markdown.substring(start) : markdown.substring(start, end);
    }
}
