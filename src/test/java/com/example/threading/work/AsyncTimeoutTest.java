package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.function.LongSupplier;
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
    void workLongerThanTheTimeoutIsAnswered503AndCancelled(String pattern) {
        AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
        long timeoutsBefore = admin.count("work." + pattern + ".timeouts");

        LoopbackHttp.Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/work/" + pattern + "?ms=10000"));

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.header("Retry-After")).isEqualTo("2");
        assertThat(answer.json().path("message").asText()).contains("no answer within " + TIMEOUT_MS + " ms");
        // Never before the timeout; and answered by it, not by the 10 s of work.
        assertThat(answer.latencyMs()).isBetween((long) TIMEOUT_MS, 9_000L);
        assertThat(admin.count("work." + pattern + ".timeouts")).isEqualTo(timeoutsBefore + 1);
        // The sleeping task was interrupted: its thread is free long before the 10 s wait would end.
        LongSupplier running = pattern.equals("thread-per-request")
                ? () -> admin.gauge("work.thread-per-request.live-threads")
                : () -> admin.count("work." + pattern + ".executor.running");
        Await.until(() -> running.getAsLong() == 0, Duration.ofSeconds(8), pattern + "'s timed-out task gave its thread back");
    }
}
