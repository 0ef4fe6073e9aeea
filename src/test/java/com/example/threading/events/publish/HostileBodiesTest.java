package com.example.threading.events.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /events} (and {@code POST /events/batch}) against clients that send their body slowly, never, in part, or
 * too much, on the real server with raw sockets: no Jetty worker waits for a body, no admission place is held by one,
 * the rest of the service keeps answering, every refusal is a JSON 4xx that closes the connection, and no answer names a
 * Java class.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class HostileBodiesTest {

    private static final String TOKEN = "hostile-test-token";
    private static final int STALLED = 250;
    private static final int MAX_PUBLISHING = 100;
    private static final long BODY_READ_TIMEOUT_MS = 3000;

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("events.publishToken", TOKEN),
            ConfigOverride.config("events.bodyReadTimeout", BODY_READ_TIMEOUT_MS + "ms"),
            ConfigOverride.config("events.maxPublishing", Integer.toString(MAX_PUBLISHING)));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void stalledBodiesHoldNoWorkerNorMoreThanMaxPublishingAndAreAnswered408WhileTheServiceKeepsAnswering() {
        QueuedThreadPool jetty = (QueuedThreadPool) APP.getEnvironment().getApplicationContext().getServer().getThreadPool();
        long slowBefore = meter("events.publish.slow-bodies");
        long busyBefore = meter("events.publish.busy");
        List<RawHttpConnection> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < STALLED; i++) {
                // Content-Length 100, two bytes sent, then nothing: the attack that pinned the workers; every other one a batch.
                String path = i % 2 == 0 ? PublishEndpoints.PATH : PublishEndpoints.BATCH_PATH;
                stalled.add(RawHttpConnection.open(APP.getLocalPort()).send(publishHead(path, 100, "Authorization: Bearer " + TOKEN) + "[{"));
            }
            long start = System.nanoTime();
            Await.until(() -> reading() == MAX_PUBLISHING && meter("events.publish.busy") == busyBefore + STALLED - MAX_PUBLISHING,
                    Duration.ofSeconds(20), MAX_PUBLISHING + " bodies being read, the rest refused");
            // The refused publishers' workers finish their 503s (and, in a fresh JVM, load Jetty's classes) a moment after
            // the count: wait for them. Had the stalled bodies held a worker each, 100 would stay busy until the deadline.
            Await.until(() -> jetty.getBusyThreads() < 50, Duration.ofMillis(BODY_READ_TIMEOUT_MS / 2),
                    "Jetty workers free while " + MAX_PUBLISHING + " bodies stall");

            AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
            assertThat(admin.gauge("admission.active")).as("admission places held by the stalled publishes and batches").isZero();
            assertThat(HTTP.get(app("/work/cached?ms=0")).status()).isEqualTo(200);
            assertThat(HTTP.get(app("/work/blocking?ms=0")).status()).isEqualTo(200);
            assertThat(HTTP.get(app("/events?timeout=1")).status()).isIn(200, 204);
            Answer busy = publish("{\"during\":\"stall\"}", "Bearer " + TOKEN);
            assertThat(busy.status()).as("publishing itself is what the stalled publishers hold").isEqualTo(503);
            assertThat(busy.header("Retry-After")).isEqualTo("1");
            assertThat(busy.json().get("message").asText()).contains("events.maxPublishing");
            Answer health = admin.healthcheck();
            assertThat(health.status()).as(health.body()).isEqualTo(200);
            assertThat((System.nanoTime() - start) / 1_000_000).as("checked before the deadline fired").isLessThan(BODY_READ_TIMEOUT_MS);

            Map<Integer, Integer> byStatus = new TreeMap<>();
            for (RawHttpConnection connection : stalled) {
                String answer = connection.readToEnd(); // returns because the server closes the connection
                int status = Integer.parseInt(answer.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
                byStatus.merge(status, 1, Integer::sum);
                assertRefused(answer, status);
            }
            assertThat(byStatus).isEqualTo(Map.of(408, MAX_PUBLISHING, 503, STALLED - MAX_PUBLISHING));
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(tookMs).as("all answered soon after the body deadline").isLessThan(BODY_READ_TIMEOUT_MS + 15_000);
        } finally {
            stalled.forEach(RawHttpConnection::close);
        }
        assertThat(meter("events.publish.slow-bodies")).isEqualTo(slowBefore + MAX_PUBLISHING);
        Await.until(() -> reading() == 0 && gauge("events.publish.in-flight") == 0, Duration.ofSeconds(5),
                "no publish in progress");
        assertThat(publish("{\"after\":\"stall\"}", "Bearer " + TOKEN).status()).isEqualTo(200);
    }

    @Test
    void aBodyCutShortIsAnswered400AtOnce() throws Exception {
        long brokenBefore = meter("events.publish.broken-bodies");
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            connection.send(publishHead(100, "Authorization: Bearer " + TOKEN) + "{\"cut\":");
            connection.socket().shutdownOutput(); // FIN after 7 of 100 bytes
            long start = System.nanoTime();
            assertRefused(connection.readToEnd(), 400);
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(BODY_READ_TIMEOUT_MS);
        }
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            connection.send(RawHttpConnection.requestHead("POST", "/events", "Authorization: Bearer " + TOKEN,
                    "Content-Type: application/json", "Transfer-Encoding: chunked") + "zz\r\n{}\r\n0\r\n\r\n");
            assertRefused(connection.readToEnd(), 400); // broken chunk framing
        }
        assertThat(meter("events.publish.broken-bodies")).isEqualTo(brokenBefore + 2);
    }

    @Test
    void refusalsFromTheHeadComeAtOnceWithoutWaitingForTheBody() {
        // Each head announces a body that is never sent: the answer must not wait for it.
        String[][] cases = {
                {"401", publishHead(100)},
                {"401", publishHead(100, "Authorization: Basic " + TOKEN)},
                {"413", publishHead(1_000_000, "Authorization: Bearer " + TOKEN)},
                {"415", RawHttpConnection.requestHead("POST", "/events", "Authorization: Bearer " + TOKEN,
                        "Content-Type: text/plain", "Content-Length: 100")},
                // A form's parameters live in its body: reading ?topic= must not make the server wait for that body.
                {"415", RawHttpConnection.requestHead("POST", "/events?topic=room-1", "Authorization: Bearer " + TOKEN,
                        "Content-Type: application/x-www-form-urlencoded", "Content-Length: 100")},
        };
        for (String[] refusal : cases) {
            try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
                long start = System.nanoTime();
                String answer = connection.send(refusal[1]).readToEnd();
                assertRefused(answer, Integer.parseInt(refusal[0]));
                assertThat((System.nanoTime() - start) / 1_000_000).as(refusal[1]).isLessThan(BODY_READ_TIMEOUT_MS);
            }
        }
    }

    @Test
    void expectContinueGetsTheBodyAskedForOnlyWhenTheHeadIsAccepted() throws Exception {
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            String body = "{\"continued\":1}";
            connection.send(publishHead(body.length(), "Authorization: Bearer " + TOKEN, "Expect: 100-continue"));
            assertThat(headWithin(connection, BODY_READ_TIMEOUT_MS)).startsWith("HTTP/1.1 100 ");
            connection.send(body);
            assertThat(headWithin(connection, BODY_READ_TIMEOUT_MS)).startsWith("HTTP/1.1 200 ");
        }
        try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
            // Refused from the head: the final answer comes at once, with no 100 asking for the body.
            assertRefused(connection.send(publishHead(17, "Expect: 100-continue")).readToEnd(), 401);
        }
    }

    @Test
    void theBearerSchemeIsCaseInsensitive() {
        assertThat(publish("{\"scheme\":1}", "bearer " + TOKEN).status()).isEqualTo(200);
        assertThat(publish("{\"scheme\":2}", "BEARER " + TOKEN).status()).isEqualTo(200);
        assertThat(publish("{\"scheme\":3}", "Bearer  " + TOKEN + " ").status()).isEqualTo(200);
        Answer wrong = publish("{\"scheme\":4}", "Bearer " + TOKEN + "x");
        assertThat(wrong.status()).isEqualTo(401);
        assertThat(wrong.json().get("code").asInt()).isEqualTo(401);
    }

    @Test
    void endpointsThatTakeNoBodyAnswerAStalledOneAtOnceWithoutAWorker() throws Exception {
        // Every other endpoint of the application port is a Jersey GET: none reads a body. Jetty answers them (or
        // their 405/404) at once and keeps the connection, without a thread, until the body or its idle timeout.
        QueuedThreadPool jetty = (QueuedThreadPool) APP.getEnvironment().getApplicationContext().getServer().getThreadPool();
        String[][] cases = {
                {"200", RawHttpConnection.requestHead("GET", "/work/cached?ms=0", "Content-Length: 100")},
                {"405", RawHttpConnection.requestHead("POST", "/work/blocking", "Content-Type: application/json", "Content-Length: 100")},
                {"405", RawHttpConnection.requestHead("PUT", "/events", "Content-Type: application/json", "Content-Length: 100")},
        };
        for (String[] request : cases) {
            List<RawHttpConnection> stalledOnes = new ArrayList<>();
            try {
                for (int i = 0; i < 20; i++) {
                    stalledOnes.add(RawHttpConnection.open(APP.getLocalPort()).send(request[1] + "{\""));
                }
                for (RawHttpConnection connection : stalledOnes) {
                    String head = headWithin(connection, BODY_READ_TIMEOUT_MS);
                    assertThat(head).as(request[1]).startsWith("HTTP/1.1 " + request[0] + " ").doesNotContain("Exception");
                }
                assertThat(jetty.getBusyThreads()).as("workers busy with 20 stalled %s", request[1]).isLessThan(15);
            } finally {
                stalledOnes.forEach(RawHttpConnection::close);
            }
        }
    }

    /** The answer's status line and headers, which must arrive within {@code ms} (the connection may stay open). */
    private static String headWithin(RawHttpConnection connection, long ms) throws IOException {
        connection.socket().setSoTimeout((int) ms);
        InputStream in = connection.socket().getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read(); // SocketTimeoutException fails the test
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        return head.toString();
    }

    private static void assertRefused(String answer, int status) {
        assertThat(answer).startsWith("HTTP/1.1 " + status + " ");
        assertThat(answer.toLowerCase()).contains("connection: close").contains("content-type: application/json");
        assertThat(answer).contains("{\"code\":" + status + ",\"message\":\"");
        assertThat(answer).doesNotContain("java.").doesNotContain("Exception").doesNotContain("<html");
    }

    private static String publishHead(long contentLength, String... more) {
        return publishHead(PublishEndpoints.PATH, contentLength, more);
    }

    private static String publishHead(String path, long contentLength, String... more) {
        List<String> lines = new ArrayList<>(List.of(more));
        lines.add("Content-Type: application/json");
        lines.add("Content-Length: " + contentLength);
        return RawHttpConnection.requestHead("POST", path, lines.toArray(String[]::new));
    }

    private static Answer publish(String json, String authorization) {
        return HTTP.send(LoopbackHttp.request(app("/events")).header("Content-Type", "application/json")
                .header("Authorization", authorization).POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private static int reading() {
        return gauge("events.publish.reading");
    }

    private static int gauge(String name) {
        return (Integer) metrics().getGauges().get(name).getValue();
    }

    private static long meter(String name) {
        return metrics().meter(name).getCount();
    }

    private static MetricRegistry metrics() {
        return APP.getEnvironment().metrics();
    }

    private static String app(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
