package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.events.stream.config.InProcessStreamFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.configuration.ConfigurationException;
import io.dropwizard.configuration.ConfigurationValidationException;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.FileConfigurationSourceProvider;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.configuration.YamlConfigurationFactory;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.jackson.Jackson;
import io.dropwizard.jersey.validation.Validators;
import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * config.yml's {@code events.stream}: in-process by default; a wrong type, URI or cluster flag refuses to start, naming what is
 * accepted.
 */
class RedisStreamConfigurationTest {

    private static final String PREFIX = "dw-stream-config";

    @AfterEach
    void clearOverrides() {
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith(PREFIX + "."))
                .forEach(System::clearProperty);
    }

    @Test
    void theDefaultIsTheInProcessStream() throws Exception {
        assertThat(load().getEvents().getStream()).isInstanceOf(InProcessStreamFactory.class);
    }

    @Test
    void redisIsChosenByNameWithItsSettings() throws Exception {
        System.setProperty(PREFIX + ".events.stream.type", "redis");
        RedisStreamFactory stream = (RedisStreamFactory) load().getEvents().getStream();
        assertThat(stream.getRedis().getUri()).isEqualTo("redis://127.0.0.1:6379");
        assertThat(stream.getRedis().getKey()).isEqualTo("threading:events");
        assertThat(stream.getRedis().getMaxLen()).isEqualTo(100_000);
    }

    @Test
    void withoutTheRedisBundleOnlyTheInProcessStreamIsKnown() {
        System.setProperty(PREFIX + ".events.stream.type", "redis");
        assertThatThrownBy(() -> load(Jackson.newObjectMapper()))
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("events.stream")
                .rootCause().hasMessageContaining("in-process");
    }

    @Test
    void anUnknownTypeRefusesToStartNamingTheAcceptedOnes() {
        System.setProperty(PREFIX + ".events.stream.type", "kafka");
        assertThatThrownBy(RedisStreamConfigurationTest::load)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("events.stream")
                .rootCause().hasMessageContaining("in-process").hasMessageContaining("redis");
    }

    @Test
    void aUriThatIsNotRedisRefusesToStart() {
        System.setProperty(PREFIX + ".events.stream.type", "redis");
        System.setProperty(PREFIX + ".events.stream.redis.uri", "http://127.0.0.1:6379");
        assertThatThrownBy(RedisStreamConfigurationTest::load)
                .isInstanceOf(ConfigurationValidationException.class)
                .hasMessageContaining("redis://host:port");
    }

    @Test
    void aClusterTakesASeedList() throws Exception {
        System.setProperty(PREFIX + ".events.stream.type", "redis");
        System.setProperty(PREFIX + ".events.stream.redis.cluster", "true");
        System.setProperty(PREFIX + ".events.stream.redis.uri", "redis://10.0.0.1:7000, redis://10.0.0.2:7000");
        RedisStreamFactory stream = (RedisStreamFactory) load().getEvents().getStream();
        assertThat(stream.getRedis().isCluster()).isTrue();
        assertThat(stream.getRedis().getUris()).containsExactly("redis://10.0.0.1:7000", "redis://10.0.0.2:7000");
    }

    @Test
    void aSeedListWithoutClusterRefusesToStart() {
        System.setProperty(PREFIX + ".events.stream.type", "redis");
        System.setProperty(PREFIX + ".events.stream.redis.uri", "redis://10.0.0.1:7000,redis://10.0.0.2:7000");
        assertThatThrownBy(RedisStreamConfigurationTest::load)
                .isInstanceOf(ConfigurationValidationException.class)
                .hasMessageContaining("events.stream.redis.cluster: true");
    }

    @Test
    void aClusterValueThatIsNotABooleanRefusesToStart() {
        System.setProperty(PREFIX + ".events.stream.type", "redis");
        System.setProperty(PREFIX + ".events.stream.redis.cluster", "yes please");
        assertThatThrownBy(RedisStreamConfigurationTest::load)
                .isInstanceOf(ConfigurationException.class)
                .hasMessageContaining("events.stream.redis.cluster")
                .hasMessageContaining("boolean");
    }

    /** config.yml read as the service reads it: with the Redis bundle's stream type registered. */
    private static ThreadingConfiguration load() throws IOException, ConfigurationException {
        Bootstrap<ThreadingConfiguration> bootstrap = new Bootstrap<>(new ThreadingApplication());
        new RedisEventStreamBundle().initialize(bootstrap);
        return load(bootstrap.getObjectMapper());
    }

    private static ThreadingConfiguration load(ObjectMapper mapper) throws IOException, ConfigurationException {
        return new YamlConfigurationFactory<>(ThreadingConfiguration.class, Validators.newValidator(), mapper, PREFIX)
                .build(new SubstitutingSourceProvider(new FileConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(false)),
                        "config.yml");
    }
}
