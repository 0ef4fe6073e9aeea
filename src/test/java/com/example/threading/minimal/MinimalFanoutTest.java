package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.client.JerseyClientConfiguration;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MinimalFanout} (4 places, client timeout 5 s) in a bare Dropwizard application, calling a downstream
 * in another one: the calls run on the managed pool, a fan-out that does not fit beside one in flight is 503, and a
 * call past the client's timeout is a counted failure after which the places are free again.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MinimalFanoutTest {

    /**
     * The downstream: waits on its Jetty thread, so that a call the client gave up on ends with its wait (a resumed
     * AsyncResponse written to a closed connection would stay in flight: docs/operations.md, graceful shutdown).
     */
    public static final class Downstream extends Application<Configuration> {
        @Override
        public void run(Configuration configuration, Environment environment) {
            environment.jersey().register(new Wait());
        }
    }

    /** GET /wait?ms=N: sleeps on the request's thread. */
    @Path("/wait")
    public static final class Wait {
        /** Sleeps {@code ms} on the request's thread. */
        @GET
        @Produces(MediaType.APPLICATION_JSON)
        public String waitFor(@QueryParam("ms") int ms) throws InterruptedException {
            Thread.sleep(ms);
            return "{}";
        }
    }

    /** A copier's configuration: Dropwizard's Jersey client section and the downstream's address. */
    public static final class FanoutConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private JerseyClientConfiguration client = new JerseyClientConfiguration();

        @NotNull
        @JsonProperty
        private URI downstream;
    }

    /** A copier's application: the listing's one line. */
    public static final class App extends Application<FanoutConfiguration> {
        @Override
        public void run(FanoutConfiguration configuration, Environment environment) {
            environment.jersey().register(MinimalFanout.of(environment, configuration.client, configuration.downstream, 4));
        }
    }

    private static final DropwizardAppExtension<Configuration> DOWNSTREAM = new DropwizardAppExtension<>(Downstream.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
    private static final DropwizardAppExtension<FanoutConfiguration> APP = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG), "minimal-fanout.",
            ConfigOverride.config("minimal-fanout.", "downstream",
                    () -> LoopbackHttp.url(DOWNSTREAM.getLocalPort(), "/wait")),
            ConfigOverride.config("minimal-fanout.", "client.timeout", "5s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void everyCallRunsOnTheManagedPool() {
        Answer answer = HTTP.get(url("/minimal/fanout?n=4&ms=100"));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("succeeded").asInt()).isEqualTo(4);
        assertThat(answer.json().get("failed").asInt()).isZero();
        assertThat(answer.json().get("threads")).isNotEmpty()
                .allSatisfy(thread -> assertThat(thread.asText()).startsWith("minimal-client-"));
    }

    @Test
    void aFanoutBesideOneInFlightIs503AndCallsPastTheClientTimeoutAreCountedFailures() {
        CompletableFuture<Answer> slow = HTTP.getAsync(url("/minimal/fanout?n=4&ms=8000"));
        Await.until(() -> DOWNSTREAM.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 4,
                Duration.ofSeconds(10), "four calls in flight");

        Answer refused = HTTP.get(url("/minimal/fanout?n=1&ms=0"));
        JsonNode timedOut = slow.join().json();

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.json().get("code").asInt()).isEqualTo(503);
        assertThat(timedOut.get("failed").asInt()).as(timedOut.toString()).isEqualTo(4);
        assertThat(HTTP.get(url("/minimal/fanout?n=4&ms=0")).json().get("succeeded").asInt()).as("places back")
                .isEqualTo(4);
    }

    @Test
    void moreCallsThanPlacesIs400() {
        assertThat(HTTP.get(url("/minimal/fanout?n=5")).status()).isEqualTo(400);
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
