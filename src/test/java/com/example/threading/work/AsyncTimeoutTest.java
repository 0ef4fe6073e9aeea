package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An async pattern whose work outlasts {@code work.asyncTimeout} answers 503 and gives its thread back. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AsyncTimeoutTest {

    static final int TIMEOUT_MS = 500;

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("work.asyncTimeout", TIMEOUT_MS + "ms"),
            ConfigOverride.config("work.retryAfter", "2s"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"thread-per-request", "cached", "bounded"})
    void workLongerThanTheTimeoutIsAnswered503AndCancelled(String pattern) throws InterruptedException {
        LoopbackHttp.Answer answer = HTTP.get("http://127.0.0.1:" + APP.getLocalPort() + "/work/" + pattern + "?ms=10000");

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.header("Retry-After")).isEqualTo("2");
        assertThat(answer.json().path("message").asText()).contains("no answer within " + TIMEOUT_MS + " ms");
        assertThat(answer.latencyMs()).isBetween((long) TIMEOUT_MS, 5_000L);
        String metrics = "http://127.0.0.1:" + APP.getAdminPort() + "/metrics";
        assertThat(HTTP.get(metrics).json().path("meters").path("work." + pattern + ".timeouts").path("count").asLong())
                .isGreaterThanOrEqualTo(1);
        // The sleeping task was interrupted: its thread is free long before the 10 s wait would end.
        String running = pattern.equals("thread-per-request")
                ? "/gauges/work.thread-per-request.live-threads/value"
                : "/counters/work." + pattern + ".executor.running/count";
        long deadline = System.nanoTime() + 3_000_000_000L;
        while (HTTP.get(metrics).json().at(running).asLong() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(HTTP.get(metrics).json().at(running).asLong()).isZero();
    }
}
