package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.sun.net.httpserver.HttpServer;
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
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fan-out client copied alone: a bare Dropwizard application whose only addition is {@link FanoutBundle}, calling a
 * downstream of its own ({@code client.downstreamUrl}: without the work pattern there is no {@code /work/cached}).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class FanoutLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the one section. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private FanoutClientConfiguration client = new FanoutClientConfiguration();

        FanoutClientConfiguration getClient() {
            return client;
        }
    }

    /** A copier's application: one addBundle line. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new FanoutBundle<>(LiftedConfiguration::getClient));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final SlowDownstream DOWNSTREAM = new SlowDownstream();
    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("client.downstreamUrl", () -> "http://127.0.0.1:" + DOWNSTREAM.port() + "/slow"),
            // Dropwizard's default client timeout (500 ms) would fail the longer calls; the service's config.yml sets more.
            ConfigOverride.config("client.timeout", "10s"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void stop() {
        HTTP.close();
        DOWNSTREAM.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"managed", "rxjava", "callback", "common"})
    void everyWayMakesEveryCall(String via) {
        Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=20&ms=10&via=" + via));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("succeeded").asInt()).as(answer.body()).isEqualTo(20);
        assertThat(answer.json().get("errors").asInt()).as(answer.body()).isZero();
    }

    @Test
    void tooManyCallsIs400() {
        assertThat(HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=1001")).status()).isEqualTo(400);
    }

    @Test
    void aClientResetMidRequestLeavesNothingInFlight() throws Exception {
        LiftOut.resetsLeaveNothingInFlight(APP.getEnvironment(), APP.getLocalPort(), "/fanout?n=2&ms=300", 100);
    }

    /** A downstream on loopback that answers {@code {}} after {@code ?ms=}. Thread-safety: the JDK server's own. */
    private static final class SlowDownstream implements AutoCloseable {
        private final ExecutorService threads = Executors.newCachedThreadPool();
        private final HttpServer server;

        SlowDownstream() {
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/slow", exchange -> {
                String query = exchange.getRequestURI().getQuery();
                long ms = query != null && query.startsWith("ms=") ? Long.parseLong(query.substring(3)) : 0;
                try {
                    Thread.sleep(ms);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.setExecutor(threads);
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }

        @Override
        public void close() {
            server.stop(0);
            threads.shutdownNow();
        }
    }
}
