package com.example.threading.threads;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The servlet on a real Jetty, with a dump that waits until the test lets it finish: one dump at a time (a second
 * request meanwhile gets 503 with Retry-After, and is counted), its file and folder gone once it is sent, and a 501
 * naming the reason where there is no dump.
 */
class JsonThreadDumpServletTest {

    private final MetricRegistry metrics = new MetricRegistry();
    private final LoopbackHttp http = new LoopbackHttp();
    private Server server;
    private int port;

    @AfterEach
    void stop() throws Exception {
        http.close();
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void oneDumpAtATimeAndItsFileIsGoneOnceSent() throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicReference<Path> written = new AtomicReference<>();
        start(Optional.of(file -> {
            written.set(file);
            Files.writeString(file, "{\"threadDump\":{}}", StandardCharsets.UTF_8);
            writing.countDown();
            try {
                finish.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }), "");

        CompletableFuture<LoopbackHttp.Answer> first = http.getAsync(LoopbackHttp.url(port, "/threads.json"));
        assertThat(writing.await(30, TimeUnit.SECONDS)).as("the first dump is being written").isTrue();
        LoopbackHttp.Answer second = http.get(LoopbackHttp.url(port, "/threads.json"));
        finish.countDown();
        LoopbackHttp.Answer answer = first.get(30, TimeUnit.SECONDS);

        assertThat(second.status()).isEqualTo(503);
        assertThat(second.header("Retry-After")).isEqualTo("1");
        assertThat(second.json().path("message").asText()).contains("one at a time");
        assertThat(metrics.meter("threads.json-dump.refused").getCount()).isEqualTo(1);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        assertThat(answer.body()).isEqualTo("{\"threadDump\":{}}");
        assertThat(written.get()).isAbsolute().doesNotExist();
        assertThat(written.get().getParent()).doesNotExist();
        assertThat(metrics.timer("threads.json-dump").getCount()).isEqualTo(1);

        assertThat(http.get(LoopbackHttp.url(port, "/threads.json")).status()).as("the next one is written").isEqualTo(200);
    }

    @Test
    void withoutADumpTheAnswerIs501SayingWhy() throws Exception {
        start(Optional.empty(), "needs JDK 21 or newer");

        LoopbackHttp.Answer answer = http.get(LoopbackHttp.url(port, "/threads.json"));

        assertThat(answer.status()).isEqualTo(501);
        assertThat(answer.json().path("code").asInt()).isEqualTo(501);
        assertThat(answer.json().path("message").asText()).isEqualTo("needs JDK 21 or newer");
    }

    private void start(Optional<JsonThreadDump> dump, String missing) throws Exception {
        HttpServlet servlet = new JsonThreadDumpServlet(dump, missing, new ObjectMapper(),
                metrics.timer("threads.json-dump"), metrics.meter("threads.json-dump.refused"));
        server = new Server();
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(servlet), "/threads.json");
        server.setHandler(context);
        server.start();
        port = connector.getLocalPort();
    }
}
