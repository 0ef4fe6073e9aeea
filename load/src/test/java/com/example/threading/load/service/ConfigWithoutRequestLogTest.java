package com.example.threading.load.service;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy {@code --request-log off} starts the service with: the repository's config.yml with no request-log appender,
 * and everything else as it was, its {@code ${VAR:-default}} values still text for the service to substitute.
 */
class ConfigWithoutRequestLogTest {

    private static final Path CONFIG = Path.of("..", "config.yml");

    @Test
    void theCopyHasNoRequestLogAndTheRestAsItWas(@TempDir Path folder) throws Exception {
        JsonNode original = new YAMLMapper().readTree(Files.readString(CONFIG));
        assertThat(original.path("server").path("requestLog").path("appenders")).as("config.yml logs requests").isNotEmpty();

        Path copy = ConfigWithoutRequestLog.write(CONFIG, folder);

        JsonNode written = new YAMLMapper().readTree(Files.readString(copy));
        assertThat(written.path("server").path("requestLog").path("appenders").isArray()).isTrue();
        assertThat(written.path("server").path("requestLog").path("appenders")).isEmpty();
        assertThat(written.path("logging").path("level").asText()).isEqualTo(original.path("logging").path("level").asText())
                .startsWith("${");
        ((ObjectNode) original.path("server").path("requestLog")).putArray("appenders");
        assertThat(written).isEqualTo(original);
        List<String> before = Files.readAllLines(CONFIG);
        List<String> after = Files.readAllLines(copy);
        assertThat(after).as("every line outside the request log as it was, e.g. an empty ${VAR:-} unquoted")
                .containsAll(before.stream().filter(line -> line.contains("${CLIENT_DOWNSTREAM_URL:-}")).toList());
    }
}
