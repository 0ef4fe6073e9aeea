package com.example.threading.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Admission control copied alone: a bare Dropwizard application with {@link AdmissionBundle} (2 requests at once, none
 * waiting) in front of an endpoint of its own that holds its thread until released: the third request gets the fast
 * 503 with Retry-After, and the others are answered.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdmissionLiftOutTest {

    private static final CountDownLatch RELEASE = new CountDownLatch(1);

    /** A copier's configuration: Dropwizard's, plus the one section. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private AdmissionConfiguration admission = new AdmissionConfiguration();

        AdmissionConfiguration getAdmission() {
            return admission;
        }
    }

    /** A copier's application: one addBundle line, and an endpoint of its own. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new AdmissionBundle<>(LiftedConfiguration::getAdmission,
                    configuration -> ThreadBound.platformThreads(configuration.getServerFactory())));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
            environment.jersey().register(new Held());
        }
    }

    /** Holds its thread until the test releases it. */
    @Path("/held")
    public static final class Held {
        @GET
        public String hold() throws InterruptedException {
            return RELEASE.await(30, TimeUnit.SECONDS) ? "released" : "timed out";
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("admission.maxRequests", "2"),
            ConfigOverride.config("admission.maxQueued", "0"),
            ConfigOverride.config("admission.retryAfter", "3s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        RELEASE.countDown();
        HTTP.close();
    }

    @Test
    void theRequestBeyondTheLimitGetsAFast503() throws Exception {
        List<CompletableFuture<Answer>> held = IntStream.range(0, 2)
                .mapToObj(i -> HTTP.getAsync(LoopbackHttp.url(APP.getLocalPort(), "/held"))).toList();
        Await.until(() -> gauge("admission.active") == 2, Duration.ofSeconds(10), "two requests admitted");

        Answer refused = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/held"));

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("3");
        RELEASE.countDown();
        for (CompletableFuture<Answer> answer : held) {
            assertThat(answer.get(30, TimeUnit.SECONDS).body()).isEqualTo("released");
        }
    }

    private static long gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).longValue();
    }
}
