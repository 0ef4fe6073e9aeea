package com.example.threading.load.engine.traffic;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The drain of {@link TopicsTraffic}: on an overloaded server a publish can be answered seconds after the last one was
 * sent; its message must still be counted and read by its members, not reported late because they stopped polling
 * before its answer told them it existed. The server here numbers each published message only when it answers the
 * publish, {@value #PUBLISH_ANSWER_DELAY_MS} ms after it arrived, as a slow server does.
 */
class TopicsTrafficDrainTest {

    /** Longer than the fixed 2 s the drain once waited after the last send, well within a publish's 10 s timeout. */
    private static final long PUBLISH_ANSWER_DELAY_MS = 4_000;

    private final Map<String, List<Long>> idsByTopic = new HashMap<>();
    private ExecutorService handlers;
    private HttpServer server;

    @BeforeEach
    void startServer() throws IOException {
        handlers = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(handlers);
        server.createContext("/events", this::events);
        server.start();
    }

    @AfterEach
    void stopServer() throws InterruptedException {
        server.stop(0);
        handlers.shutdownNow();
        assertThat(handlers.awaitTermination(10, TimeUnit.SECONDS)).as("the test server's handlers ended").isTrue();
    }

    @Test
    void aPublishAnsweredLongAfterTheLastSendIsCountedAndReadNotLeftLate() throws Exception {
        URI instance = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");

        TopicsTraffic.Result result = new TopicsTraffic(
                new TopicsTraffic.Plan(List.of(instance), "room-", 2, 1, 1, 50, 10, 1, TopicsTraffic.Publishing.EACH, Duration.ofSeconds(1), 5, TopicsTraffic.Transport.LONG_POLL)).run();

        assertThat(result.publishFailures()).isZero();
        assertThat(result.published()).as("every publish answered with its id, the slow ones too").isGreaterThanOrEqualTo(10);
        assertThat(result.expectedDeliveries()).isEqualTo(2 * result.published());
        assertThat(result.deliveries()).as("every member read every message").isEqualTo(result.expectedDeliveries());
        assertThat(result.unreadAtEnd()).isZero();
        assertThat(result.skipped()).isZero();
    }

    /** POST numbers the message after the delay and answers its id; GET answers every event after each cursor, or 204. */
    private void events(HttpExchange exchange) throws IOException {
        try (exchange) {
            List<String> topics = new ArrayList<>();
            for (String parameter : exchange.getRequestURI().getRawQuery().split("&")) {
                if (parameter.startsWith("topic=")) {
                    topics.add(parameter.substring("topic=".length()));
                }
            }
            if (exchange.getRequestMethod().equals("POST")) {
                exchange.getRequestBody().readAllBytes();
                Thread.sleep(PUBLISH_ANSWER_DELAY_MS);
                respond(exchange, "{\"id\":" + append(topics.get(0)) + "}");
                return;
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
            do {
                String news = newsAfter(topics);
                if (news != null) {
                    respond(exchange, news);
                    return;
                }
                Thread.sleep(10);
            } while (System.nanoTime() < deadline);
            exchange.sendResponseHeaders(204, -1);
        } catch (InterruptedException stopping) {
            Thread.currentThread().interrupt();
        }
    }

    private long append(String topic) {
        synchronized (idsByTopic) {
            List<Long> ids = idsByTopic.computeIfAbsent(topic, t -> new ArrayList<>());
            ids.add((long) ids.size() + 1);
            return ids.size();
        }
    }

    /** The answer to a poll of {@code name:cursor} pairs, or null while none has news. */
    private String newsAfter(List<String> topicCursors) {
        StringBuilder events = new StringBuilder();
        StringBuilder cursors = new StringBuilder();
        synchronized (idsByTopic) {
            for (String topicCursor : topicCursors) {
                String topic = topicCursor.substring(0, topicCursor.indexOf(':'));
                long cursor = Long.parseLong(topicCursor.substring(topicCursor.indexOf(':') + 1));
                List<Long> ids = idsByTopic.getOrDefault(topic, List.of());
                for (long id = cursor + 1; id <= ids.size(); id++) {
                    events.append(events.length() == 0 ? "" : ",").append("{\"id\":").append(id).append(",\"topic\":\"").append(topic).append("\"}");
                }
                cursors.append(cursors.length() == 0 ? "" : ",").append('"').append(topic).append("\":").append(Math.max(cursor, ids.size()));
            }
        }
        return events.length() == 0 ? null : "{\"events\":[" + events + "],\"missed\":false,\"cursors\":{" + cursors + "}}";
    }

    private static void respond(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
    }
}
