package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code /work/virtual} behind a downstream of two connections, six requests at once, each holding a connection for
 * 2 s, without a bulkhead: the four beyond the two park, waiting, and are all answered in turn
 * ({@link VirtualDownstreamBulkheadTest} has the bulkhead). JDK 21+ (on JDK 17 the path is 501, which
 * {@code WorkPatternsTest} checks).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class VirtualDownstreamTest {

    static final int REQUESTS = 6;
    static final int CONNECTIONS = 2;

    // One application per class: two in one class would share (and leak) the same dw.* system properties.
    private static final DropwizardAppExtension<ThreadingConfiguration> QUEUED = app();

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void close() {
        HTTP.close();
    }

    static DropwizardAppExtension<ThreadingConfiguration> app(ConfigOverride... more) {
        List<ConfigOverride> overrides = new ArrayList<>(List.of(ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("events.tickPeriod", "0s"),
                ConfigOverride.config("work.virtual.downstreamConnections", String.valueOf(CONNECTIONS))));
        overrides.addAll(List.of(more));
        return new DropwizardAppExtension<>(ThreadingApplication.class, "config.yml", overrides.toArray(ConfigOverride[]::new));
    }

    @Test
    void withoutABulkheadTheRequestsBeyondTheConnectionsWaitTheirTurn() {
        Assumptions.assumeTrue(Runtime.version().feature() >= 21, "no virtual threads below JDK 21: /work/virtual is 501");
        List<CompletableFuture<LoopbackHttp.Answer>> answers = sendAll(HTTP, QUEUED);
        Await.until(() -> gauge(QUEUED, "work.virtual.downstream.waiting") == REQUESTS - CONNECTIONS, Duration.ofSeconds(10),
                "four requests waiting for a connection");
        assertThat(gauge(QUEUED, "work.virtual.downstream.in-use")).isEqualTo(CONNECTIONS);

        for (CompletableFuture<LoopbackHttp.Answer> answer : answers) {
            assertThat(answer.join().status()).as(answer.join().body()).isEqualTo(200);
        }
        assertThat(gauge(QUEUED, "work.virtual.downstream.waiting")).isZero();
        assertThat(QUEUED.getEnvironment().metrics().meter("work.virtual.downstream.refused").getCount()).isZero();
    }

    static List<CompletableFuture<LoopbackHttp.Answer>> sendAll(LoopbackHttp http, DropwizardAppExtension<ThreadingConfiguration> app) {
        List<CompletableFuture<LoopbackHttp.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            answers.add(http.getAsync(LoopbackHttp.url(app.getLocalPort(), "/work/virtual?ms=2000")));
        }
        return answers;
    }

    private static int gauge(DropwizardAppExtension<ThreadingConfiguration> app, String name) {
        Gauge<?> gauge = app.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).intValue();
    }
}
