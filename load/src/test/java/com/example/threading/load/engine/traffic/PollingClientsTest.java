package com.example.threading.load.engine.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.load.engine.http.ClientConnections;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.service.ServerCpu;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long-poll clients against a minimal server that keeps the /events contract (the service's endpoint is
 * built on another branch): each client follows its cursor and every poll is accounted for.
 */
class PollingClientsTest {

    private static final int CLIENTS = 10;
    private static final int ITERATIONS = 3;

    private final Object lock = new Object();
    private long lastId;

    @Test
    void everyClientFollowsItsCursorForItsIterations(@TempDir Path dir) throws Exception {
        AtomicInteger withCursor = new AtomicInteger();
        AtomicInteger cursorAhead = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        ExecutorService handlers = Executors.newCachedThreadPool();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        server.setExecutor(handlers);
        server.createContext("/events", exchange -> {
            String query = exchange.getRequestURI().getQuery();
            long after;
            synchronized (lock) {
                after = lastId;
            }
            for (String parameter : query.split("&")) {
                if (parameter.startsWith("after=")) {
                    withCursor.incrementAndGet();
                    after = Long.parseLong(parameter.substring(6));
                    synchronized (lock) {
                        if (after > lastId) {
                            cursorAhead.incrementAndGet();
                        }
                    }
                }
            }
            long id;
            synchronized (lock) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (lastId <= after && System.nanoTime() < deadline) {
                    try {
                        lock.wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                id = lastId;
            }
            if (id <= after) {
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
                return;
            }
            byte[] body = ("{\"events\":[{\"id\":" + id + ",\"time\":\"now\",\"data\":\"tick\"}],\"missed\":false,\"lastId\":" + id + "}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        ticker.scheduleAtFixedRate(() -> {
            synchronized (lock) {
                lastId++;
                lock.notifyAll();
            }
        }, 200, 200, TimeUnit.MILLISECONDS);
        server.start();
        try {
            PhaseRecorder recorder = new PhaseRecorder("/events", dir.resolve("events.hlog"), new ServerCpu(Optional.empty()));
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/events");
            PollingClients clients = new PollingClients(uri, CLIENTS, ITERATIONS, 5, false);
            boolean complete;
            try (Progress progress = Progress.start(false, "test", 0)) {
                complete = clients.run(recorder, System.nanoTime() + TimeUnit.SECONDS.toNanos(30), progress);
            }
            PhaseResult result = recorder.finish("HTTP/1.1", "/events", 0);

            assertThat(complete).isTrue();
            assertThat(result.sent()).isEqualTo(CLIENTS * ITERATIONS);
            assertThat(result.count(Outcome.OK)).isEqualTo(CLIENTS * ITERATIONS);
            assertThat(clients.events()).isEqualTo(CLIENTS * ITERATIONS);
            assertThat(clients.unparsable()).isZero();
            // A connection of its own per client, open before the first poll; the server closed none.
            assertThat(clients.connections()).isEqualTo(new ClientConnections(CLIENTS, CLIENTS, CLIENTS, CLIENTS, 0, 0));
            // The first poll of each client has no cursor; every later one carries the last id it was given.
            assertThat(withCursor.get()).isEqualTo(CLIENTS * (ITERATIONS - 1));
            assertThat(cursorAhead.get()).isZero();
            assertThat(result.latencyMs().max()).isLessThan(5_000);
            assertThatThrownBy(() -> clients.run(recorder, System.nanoTime() + TimeUnit.SECONDS.toNanos(1), Progress.start(false, "again", 0)))
                    .as("clients run once").isInstanceOf(IllegalStateException.class);
        } finally {
            server.stop(0);
            ticker.shutdownNow();
            handlers.shutdownNow();
        }
    }
}
