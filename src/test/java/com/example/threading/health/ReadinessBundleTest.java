package com.example.threading.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.health.HealthCheck;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The bundle alone, in a bare Dropwizard application with three health checks: {@code stream} (named, flipped by the
 * test), {@code busy} (always unhealthy, not named: load is not readiness) and {@code absent} (named, never
 * registered: skipped). The verdict is not kept ({@link Duration#ZERO}), so each probe sees the checks of its instant;
 * {@link ReadinessTest} covers the max age.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ReadinessBundleTest {

    static final AtomicBoolean STREAM_UP = new AtomicBoolean(true);

    /** The smallest application that uses the bundle. */
    public static final class App extends Application<Configuration> {
        @Override
        public void initialize(Bootstrap<Configuration> bootstrap) {
            bootstrap.addBundle(new ReadinessBundle(Duration.ZERO, "stream", "absent", "deadlocks")); // a verdict per probe
        }

        @Override
        public void run(Configuration configuration, Environment environment) {
            environment.healthChecks().register("stream", new HealthCheck() {
                @Override
                protected Result check() {
                    return STREAM_UP.get() ? Result.healthy() : Result.unhealthy("Redis at redis.internal:6379: refused");
                }
            });
            environment.healthChecks().register("busy", new HealthCheck() {
                @Override
                protected Result check() {
                    return Result.unhealthy("every thread busy");
                }
            });
        }
    }

    static final DropwizardAppExtension<Configuration> APP = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath("health/readiness.yml"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterEach
    void streamUpAgain() {
        STREAM_UP.set(true);
    }

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void readyWhileTheNamedRegisteredChecksPassWhateverTheOthersSay() {
        Answer ready = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), ReadinessBundle.PATH));
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.header("Content-Type")).startsWith("application/json");
        assertThat(ready.header("Cache-Control")).isEqualTo("no-store");
        assertThat(ready.json().get("ready").asBoolean()).isTrue();
        assertThat(ready.json().get("checks").toString()).isEqualTo("[\"stream\",\"deadlocks\"]");
        // The admin port's /healthcheck runs every check, and "busy" fails it: that is not what the balancer asks.
        assertThat(HTTP.get(LoopbackHttp.url(APP.getAdminPort(), "/healthcheck")).status()).isEqualTo(500);
    }

    @Test
    void notReadyWhileANamedCheckFailsWith503RetryAfterAndOnlyTheCheckName() {
        STREAM_UP.set(false);
        Answer notReady = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), ReadinessBundle.PATH));
        assertThat(notReady.status()).isEqualTo(503);
        assertThat(notReady.header("Retry-After")).isEqualTo("1");
        assertThat(notReady.json().get("code").asInt()).isEqualTo(503);
        assertThat(notReady.json().get("message").asText()).isEqualTo("not ready: stream");
        assertThat(notReady.body()).doesNotContain("redis.internal");

        STREAM_UP.set(true);
        assertThat(HTTP.get(LoopbackHttp.url(APP.getLocalPort(), ReadinessBundle.PATH)).status()).isEqualTo(200);
    }

    @Test
    void servedOnTheApplicationPortOnly() {
        assertThat(HTTP.get(LoopbackHttp.url(APP.getAdminPort(), ReadinessBundle.PATH)).status()).isEqualTo(404);
    }
}
