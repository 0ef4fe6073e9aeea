package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import io.dropwizard.util.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A copier who leaves config.yml's {@code client} section out gets its values anyway: the class's defaults (as Dropwizard
 * binds a configuration with no such keys) are the defaults config.yml's {@code ${VAR:-default}} give, not Dropwizard's
 * client defaults (minThreads 1, workQueueSize 8, timeout 500 ms, keepAlive 0), which docs/client.md measures queuing,
 * refusing and failing calls.
 */
class FanoutClientDefaultsTest {

    private static final List<String> KEYS = List.of("minThreads", "maxThreads", "workQueueSize", "maxCallsInFlight", "threadKeepAlive",
            "poolShutdownTimeout", "maxConnections", "maxConnectionsPerRoute", "connectionRequestTimeout", "connectionTimeout", "timeout",
            "keepAlive", "retries");

    @Test
    void withoutTheClientSectionTheDefaultsAreConfigYmls() throws Exception {
        FanoutClientConfiguration unset = new YamlConfigurationFactory<>(FanoutClientConfiguration.class, Validators.newValidator(),
                Jackson.newObjectMapper(), "dw").build();
        Map<String, String> configYml = clientDefaults();
        assertThat(configYml.keySet()).containsAll(KEYS);

        Map<String, Object> code = new LinkedHashMap<>();
        code.put("minThreads", unset.getMinThreads());
        code.put("maxThreads", unset.getMaxThreads());
        code.put("workQueueSize", unset.getWorkQueueSize());
        code.put("maxCallsInFlight", unset.getMaxCallsInFlight());
        code.put("threadKeepAlive", unset.getThreadKeepAlive());
        code.put("poolShutdownTimeout", unset.getPoolShutdownTimeout());
        code.put("maxConnections", unset.getMaxConnections());
        code.put("maxConnectionsPerRoute", unset.getMaxConnectionsPerRoute());
        code.put("connectionRequestTimeout", unset.getConnectionRequestTimeout());
        code.put("connectionTimeout", unset.getConnectionTimeout());
        code.put("timeout", unset.getTimeout());
        code.put("keepAlive", unset.getKeepAlive());
        code.put("retries", unset.getRetries());
        for (String key : KEYS) {
            String expected = configYml.get(key);
            Object actual = code.get(key);
            if (actual instanceof Duration duration) {
                assertThat(duration).as(key).isEqualTo(Duration.parse(expected));
            } else {
                assertThat(actual).as(key).hasToString(expected);
            }
        }
        assertThat(unset.getMinThreads()).as("not Dropwizard's 1").isEqualTo(unset.getMaxThreads());
        assertThat(unset.getWorkQueueSize()).as("room for 2 x maxCallsInFlight").isGreaterThanOrEqualTo(2 * unset.getMaxCallsInFlight());
    }

    /** {@code key: ${VAR:-default}} (or {@code key: value}) of config.yml's {@code client} section, by key. */
    private static Map<String, String> clientDefaults() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("config.yml"));
        Map<String, String> defaults = new LinkedHashMap<>();
        Pattern entry = Pattern.compile("^  (\\w+): (?:\\$\\{\\w+:-([^}]*)}|([^#\\s][^#]*?))\\s*$");
        boolean inClient = false;
        for (String line : lines) {
            if (!line.startsWith(" ") && !line.startsWith("#") && !line.isBlank()) {
                inClient = line.startsWith("client:");
                continue;
            }
            Matcher matcher = entry.matcher(line);
            if (inClient && matcher.matches()) {
                defaults.put(matcher.group(1), matcher.group(2) != null ? matcher.group(2) : matcher.group(3));
            }
        }
        return defaults;
    }
}
