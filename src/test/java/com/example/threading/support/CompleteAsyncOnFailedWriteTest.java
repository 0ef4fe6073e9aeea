package com.example.threading.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Meter;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.RawHttpConnection;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A suspended request whose client reset the connection before the answer is completed anyway, not left in flight:
 * the filter as {@code WorkBundle} maps it, on the whole service ({@code FanoutLiftOutTest} does the same on
 * {@code /fanout}).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CompleteAsyncOnFailedWriteTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"));

    @ParameterizedTest
    @ValueSource(strings = {"/work/cached?ms=300", "/work/bounded?ms=300", "/work/thread-per-request?ms=300"})
    void resetClientsLeaveNoRequestInFlight(String pathAndQuery) throws Exception {
        Counter inFlight = APP.getEnvironment().metrics()
                .counter("io.dropwizard.jetty.MutableServletContextHandler.active-requests");
        Meter failedWrites = APP.getEnvironment().metrics().meter("http.client-disconnects");
        long failedBefore = failedWrites.getCount();
        for (int i = 0; i < 3; i++) {
            try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
                connection.send(RawHttpConnection.requestHead("GET", pathAndQuery));
                Thread.sleep(100);
                connection.reset(); // RST: the answer's write fails
            }
        }
        // Each answer's write really failed (counted as a client disconnect), and each request was completed anyway.
        Await.until(() -> failedWrites.getCount() - failedBefore == 3, Duration.ofSeconds(10), "3 answers whose write failed");
        Await.until(() -> inFlight.getCount() == 0, Duration.ofSeconds(10), "no request in flight after their answers failed");
    }

    @Test
    void answersStillReachClientsThatStay() {
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            String answer = connection.send(RawHttpConnection.requestHead("GET", "/work/cached?ms=10", "Connection: close"))
                    .readToEnd();
            assertThat(answer).startsWith("HTTP/1.1 200").contains("\"pattern\":\"cached\"");
        }
    }
}
