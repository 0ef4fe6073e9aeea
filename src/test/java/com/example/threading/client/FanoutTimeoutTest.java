package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A downstream that accepts connections and never answers, a client pool of 2 threads and a fan-out timeout
 * shorter than the client timeout: /fanout answers at the fan-out timeout with every call counted as
 * unfinished, and the calls not yet started (at most 2 run at once) are never sent.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class FanoutTimeoutTest {

    private static final long FANOUT_TIMEOUT_MS = 500;
    private static final long CLIENT_TIMEOUT_MS = 2_000;
    private static final int POOL_THREADS = 2;

    private static final SilentDownstream DOWNSTREAM = new SilentDownstream();

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("client.downstreamUrl", () -> "http://127.0.0.1:" + DOWNSTREAM.port() + "/silent"),
            ConfigOverride.config("client.minThreads", String.valueOf(POOL_THREADS)),
            ConfigOverride.config("client.maxThreads", String.valueOf(POOL_THREADS)),
            ConfigOverride.config("client.maxCallsInFlight", String.valueOf(POOL_THREADS)),
            ConfigOverride.config("client.timeout", CLIENT_TIMEOUT_MS + "ms"),
            ConfigOverride.config("client.fanoutTimeout", FANOUT_TIMEOUT_MS + "ms"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void stopDownstreamAndClient() {
        DOWNSTREAM.close();
        HTTP.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"managed", "rxjava", "callback"})
    void answersAtTheFanoutTimeoutAndDropsTheQueuedCalls(String via) throws Exception {
        int n = 3 * POOL_THREADS;
        int acceptedBefore = DOWNSTREAM.accepted();

        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?n=" + n + "&ms=10&via=" + via));

        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode answer = response.json();
        assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isBetween(FANOUT_TIMEOUT_MS, CLIENT_TIMEOUT_MS - 1);
        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isZero();
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isEqualTo(n);
        assertThat(answer.get("errorsByKind").get(FanoutRun.UNFINISHED).asInt()).as(response.body()).isEqualTo(n);

        // The calls running at the timeout end at the client timeout; the queued ones must never reach the
        // downstream (without the filter's abort all n would, POOL_THREADS at a time). On a slow start fewer than
        // POOL_THREADS may have been under way.
        Counter running = APP.getEnvironment().metrics().counter("client.fanout.executor.running");
        Await.until(() -> running.getCount() == 0, Duration.ofMillis(CLIENT_TIMEOUT_MS + 10_000), "the client pool idle again");
        // Their places are free again only now, when no call of the fan-out holds a thread.
        Await.until(() -> ((Number) APP.getEnvironment().metrics().getGauges().get("client.fanout.in-flight").getValue()).intValue() == 0,
                Duration.ofSeconds(10), "every place given back");
        Thread.sleep(200); // a wrongly started call would connect right after a thread frees up
        assertThat(DOWNSTREAM.accepted() - acceptedBefore).isBetween(0, POOL_THREADS);
    }
}
