package com.example.threading.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A suspended request whose client reset the connection before the answer is completed anyway, not left in flight. */
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
        for (int i = 0; i < 3; i++) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), APP.getLocalPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(100);
                socket.setSoLinger(true, 0); // close() now sends RST: the answer's write fails
            }
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (inFlight.getCount() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(inFlight.getCount()).as("requests still in flight 5 s after their answers failed").isZero();
    }

    @Test
    void answersStillReachClientsThatStay() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), APP.getLocalPort())) {
            socket.getOutputStream().write("GET /work/cached?ms=10 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(answer).startsWith("HTTP/1.1 200").contains("\"pattern\":\"cached\"");
        }
    }
}
