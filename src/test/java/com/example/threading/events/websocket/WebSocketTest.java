package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.TestSocket;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import com.example.threading.testing.RawHttpConnection;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.frames.ResetFrame;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.api.exceptions.UpgradeException;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /events/ws} on the real server with Jetty's WebSocket client: events arrive one message each with the
 * position to resume from, the socket publishes, subscribes and unsubscribes, bad input gets an error message or its
 * close code and harms no other socket, refusals come before the upgrade as JSON, and the stop closes every socket.
 */
class WebSocketTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private final WebSocketClient client = new WebSocketClient();
    private final List<TestSocket> sockets = new ArrayList<>();
    private DropwizardTestSupport<ThreadingConfiguration> support;

    @BeforeEach
    void startClient() throws Exception {
        client.start();
    }

    @AfterEach
    void stop() throws Exception {
        sockets.forEach(TestSocket::close);
        client.stop();
        if (support != null) {
            support.after();
        }
    }

    @Test
    void eachEventIsOneMessageWithThePositionToResumeFrom() throws Exception {
        start();
        TestSocket socket = open("/events/ws?topic=room");
        Await.until(() -> gauge("events.parked") == 1, BOUND, "parked");
        publish("room", "{\"n\":1}");
        publish("room", "{\"n\":2}");
        JsonNode first = socket.next(BOUND);
        assertThat(first.path("type").asText()).isEqualTo("event");
        assertThat(first.path("event").path("id").asLong()).isEqualTo(1);
        assertThat(first.path("event").path("topic").asText()).isEqualTo("room");
        assertThat(first.path("event").path("data").path("n").asInt()).isEqualTo(1);
        assertThat(first.path("event").has("time")).isTrue();
        assertThat(first.path("position").asText()).startsWith("room:1:");
        JsonNode second = socket.next(BOUND);
        assertThat(second.path("event").path("id").asLong()).isEqualTo(2);

        publish("room", "{\"n\":3}");
        TestSocket resumed = open("/events/ws?topic=" + first.path("position").asText());
        assertThat(resumed.next(BOUND).path("event").path("id").asLong()).as("after the position: 2, then 3").isEqualTo(2);
        assertThat(resumed.next(BOUND).path("event").path("id").asLong()).isEqualTo(3);
        assertThat(meter("events.websocket.opened")).isEqualTo(2);
        // One standing poll for the first socket across its events; the second's was answered at once, then stood.
        Await.until(() -> gauge("events.parked") == 2, BOUND, "both sockets' standing polls parked");
        assertThat(meter("events.follows")).isEqualTo(3);
    }

    @Test
    void theEventsOfOneBatchLeaveInAFewWritesNotOneWriteEach() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/thread-self/io")),
                "needs Linux's per-thread I/O counters (/proc/<pid>/task/<tid>/io) to count the server's write calls");
        start();
        TestSocket socket = open("/events/ws?topic=burst");
        Await.until(() -> gauge("events.parked") == 1, BOUND, "parked");
        String batch = IntStream.range(0, 50).mapToObj(i -> "{\"topic\":\"burst\",\"data\":{\"n\":" + i + "}}")
                .collect(Collectors.joining(",", "[", "]"));
        try (LoopbackHttp http = new LoopbackHttp()) {
            long writesBefore = serverWriteCalls();
            assertThat(http.postJson(url("/events/batch"), batch).status()).isEqualTo(200);
            for (int i = 0; i < 50; i++) {
                assertThat(socket.next(BOUND).path("event").path("data").path("n").asInt()).isEqualTo(i);
            }
            long writes = serverWriteCalls() - writesBefore;
            // Only the application pool's threads are counted: the JVM's other threads (logs, the test's output,
            // what earlier tests left winding down) write too, and in the suite took the JVM's count from 17 to 45.
            // Measured on JDK 17 and 25: 6 (the POST's answer, then the 50 messages through Jetty's output buffer),
            // and 54 with one write per message (sendBatched sending at once).
            assertThat(writes).as("write calls of the application pool while the POST's answer and 50 events went out")
                    .isLessThan(25);
        }
    }

    @Test
    void overH2cSocketsAreStreamsOfOneConnectionOpenedByExtendedConnect() throws Exception {
        start(ConfigOverride.config("server.shutdownGracePeriod", "10s"));
        org.eclipse.jetty.client.HttpClient http2 = new org.eclipse.jetty.client.HttpClient(
                new HttpClientTransportOverHTTP2(new HTTP2Client(new ClientConnector())));
        WebSocketClient overH2c = new WebSocketClient(http2);
        overH2c.start();
        try {
            TestSocket reader = TestSocket.open(overH2c, wsUri("/events/ws?topic=h2"), Map.of(), BOUND);
            TestSocket publisher = TestSocket.open(overH2c, wsUri("/events/ws?topic=h2"), Map.of(), BOUND);
            sockets.addAll(List.of(reader, publisher));
            assertThat(http2.getDestinations()).singleElement().satisfies(destination -> assertThat(
                    destination.getConnectionPool()).extracting("connectionCount").as("connections").isEqualTo(1));
            Await.until(() -> gauge("events.parked") == 2, BOUND, "both parked");
            assertThat(upgradeStatus(overH2c, "/events/ws?topic=bad%20topic")).as("a bad query, before the upgrade").isEqualTo(400);
            assertThat(upgradeStatus(overH2c, "/events")).as("another events path").isEqualTo(405);
            assertThat(upgradeStatus(overH2c, "/work/cached")).as("a Jersey path").isEqualTo(405);
            publisher.send("{\"publish\":{\"topic\":\"h2\",\"data\":{\"over\":\"h2c\"}},\"ref\":1}");
            JsonNode received = reader.next(BOUND);
            assertThat(received.path("event").path("data").path("over").asText()).isEqualTo("h2c");
            assertThat(received.path("position").asText()).startsWith("h2:1:");

            long stopStart = System.nanoTime();
            support.after();
            support = null;
            long stopMs = (System.nanoTime() - stopStart) / 1_000_000;
            JsonNode last = reader.next(BOUND);
            assertThat(last.path("type").asText()).isEqualTo("closing");
            assertThat(reader.closeCode(BOUND)).isEqualTo(StatusCode.SHUTDOWN);
            // The sockets' streams end with them: the stop does not wait out its grace period for their connection.
            assertThat(stopMs).as("stop, with a 10 s grace period").isLessThan(9_000L);
        } finally {
            overH2c.stop();
        }
    }

    @Test
    void aStreamResetAroundTheUpgradeGivesBackItsPlace() throws Exception {
        start(ConfigOverride.config("websocket.maxSockets", "3"), ConfigOverride.config("websocket.openTimeout", "500ms"));
        HTTP2Client h2 = new HTTP2Client(new ClientConnector());
        h2.start();
        try {
            Session session = h2.connect(new InetSocketAddress("127.0.0.1", support.getLocalPort()), new Session.Listener() { })
                    .get(10, TimeUnit.SECONDS);
            // Over HTTP/2 a client may reset the socket's stream at any time: here once its CONNECT is sent, or once
            // the answer came. Jetty may tell a socket reset before its open nothing at all: until the sweep gives
            // their places back, such sockets fill maxSockets, and the next CONNECTs get 503.
            int upgrades = 0; // answered 200 (the others 503)
            for (int i = 0; i < 30; i++) {
                CompletableFuture<Integer> answered = new CompletableFuture<>();
                MetaData.ConnectRequest connect = new MetaData.ConnectRequest(HttpScheme.HTTP,
                        new HostPortHttpField("127.0.0.1:" + support.getLocalPort()), "/events/ws?topic=reset",
                        HttpFields.build().put("Sec-WebSocket-Version", "13"), "websocket");
                Stream stream = session.newStream(new HeadersFrame(connect, null, false), new Stream.Listener() {
                    @Override
                    public void onHeaders(Stream answering, HeadersFrame frame) {
                        answered.complete(((MetaData.Response) frame.getMetaData()).getStatus());
                    }
                }).get(10, TimeUnit.SECONDS);
                if (i % 2 == 0) {
                    int status = answered.get(10, TimeUnit.SECONDS);
                    assertThat(status).isIn(200, 503);
                    upgrades += status == 200 ? 1 : 0;
                }
                stream.reset(new ResetFrame(stream.getId(), ErrorCode.CANCEL_STREAM_ERROR.code)).get(10, TimeUnit.SECONDS);
            }
            assertThat(upgrades).as("CONNECTs answered 200").isPositive();
            // Every place comes back: an opened socket's at its close, an unopened one's at the sweep (openTimeout).
            Await.until(() -> openAll(3, "/events/ws?topic=after"), BOUND, "all 3 places free again");
            assertThat(upgradeStatus("/events/ws?topic=after")).as("a fourth: maxSockets still counted").isEqualTo(503);
        } finally {
            h2.stop();
        }
    }

    @Test
    void aConnectOverHttp11GetsAJson400NotASocket() throws Exception {
        start();
        // CONNECT is allowed (server.allowedMethods) for RFC 8441's sockets over h2c; over HTTP/1.1 it names a host,
        // never a path, so Jetty refuses these before any servlet, with the service's JSON error.
        for (String path : List.of("/events/ws?topic=a", "/work/cached")) {
            try (RawHttpConnection connection = RawHttpConnection.open(support.getLocalPort())) {
                RawHttpConnection.Reply reply = connection.send(RawHttpConnection.requestHead("CONNECT", path)).readReply();
                assertThat(reply.status()).as(path).isEqualTo(400);
                assertThat(reply.body()).as(path).contains("\"code\":400");
            }
        }
        assertThat(gauge("events.websocket.open")).isZero();
    }

    @Test
    void aSocketPublishesAndEveryOtherSocketOfTheTopicReceives() throws Exception {
        start();
        TestSocket publisher = open("/events/ws?topic=chat");
        TestSocket reader = open("/events/ws?topic=chat");
        Await.until(() -> gauge("events.parked") == 2, BOUND, "both parked");
        publisher.send("{\"publish\":{\"topic\":\"chat\",\"data\":{\"text\":\"hi\"}},\"ref\":7}");
        List<JsonNode> publisherSaw = List.of(publisher.next(BOUND), publisher.next(BOUND));
        JsonNode ack = publisherSaw.stream().filter(m -> m.path("type").asText().equals("ack")).findFirst().orElseThrow();
        assertThat(ack.path("ref").asInt()).isEqualTo(7);
        assertThat(ack.path("event").path("id").asLong()).isEqualTo(1);
        assertThat(publisherSaw).anySatisfy(m -> assertThat(m.path("type").asText()).isEqualTo("event"));
        JsonNode received = reader.next(BOUND);
        assertThat(received.path("event").path("data").path("text").asText()).isEqualTo("hi");
        assertThat(meter("events.websocket.published")).isEqualTo(1);
    }

    @Test
    void subscribeAndUnsubscribeChangeTopicsOnTheSameSocket() throws Exception {
        start();
        TestSocket socket = open("/events/ws?topic=a");
        Await.until(() -> gauge("events.parked") == 1, BOUND, "parked");
        socket.send("{\"subscribe\":[\"b\"],\"ref\":\"s1\"}");
        JsonNode subscribed = socket.next(BOUND);
        assertThat(subscribed.path("type").asText()).isEqualTo("subscribed");
        assertThat(subscribed.path("ref").asText()).isEqualTo("s1");
        assertThat(subscribed.path("topics")).extracting(JsonNode::asText).containsExactly("a", "b");
        publish("b", "{\"on\":\"b\"}");
        assertThat(socket.next(BOUND).path("event").path("topic").asText()).isEqualTo("b");

        socket.send("{\"unsubscribe\":[\"a\"]}");
        assertThat(socket.next(BOUND).path("topics")).extracting(JsonNode::asText).containsExactly("b");
        publish("a", "{\"on\":\"a\"}");
        publish("b", "{\"on\":\"b2\"}");
        JsonNode next = socket.next(BOUND);
        assertThat(next.path("event").path("data").path("on").asText()).as("a is no longer read").isEqualTo("b2");

        socket.send("{\"unsubscribe\":[\"b\"]}");
        JsonNode refused = socket.next(BOUND);
        assertThat(refused.path("type").asText()).isEqualTo("error");
        assertThat(refused.path("code").asInt()).isEqualTo(400);
        assertThat(gauge("events.parked")).as("still one poll out").isEqualTo(1);
    }

    @Test
    void badMessagesGetAnErrorAndHarmNoOtherSocket() throws Exception {
        start(ConfigOverride.config("websocket.maxMessageSize", "1KiB"));
        TestSocket bystander = open("/events/ws?topic=calm");
        TestSocket bad = open("/events/ws?topic=noise");
        Await.until(() -> gauge("events.parked") == 2, BOUND, "both parked");
        for (String text : List.of("not json", "[1,2]", "{\"shout\":1}", "{\"publish\":{\"topic\":\"x\"}}",
                "{\"publish\":{\"topic\":\"bad topic\",\"data\":1}}", "{\"subscribe\":[\"a\",\"a\"]}", "{} {}",
                "{\"publish\":{\"topic\":\"x\",\"data\":1},\"subscribe\":[\"x\"]}", "{\"ref\":[1],\"subscribe\":[\"x\"]}")) {
            bad.send(text);
            JsonNode error = bad.next(BOUND);
            assertThat(error.path("type").asText()).as(text).isEqualTo("error");
            assertThat(error.path("code").asInt()).as(text).isEqualTo(400);
            assertThat(error.path("message").asText()).as(text).isNotBlank();
        }
        bad.send("{\"publish\":{\"topic\":\"noise\",\"data\":\"" + "x".repeat(2000) + "\"}}");
        assertThat(bad.closeCode(BOUND)).as("too large").isEqualTo(StatusCode.MESSAGE_TOO_LARGE);

        TestSocket binary = open("/events/ws?topic=noise");
        binary.sendBinary(new byte[] {1, 2, 3});
        assertThat(binary.next(BOUND).path("type").asText()).isEqualTo("error");
        assertThat(binary.closeCode(BOUND)).isEqualTo(StatusCode.BAD_DATA);

        publish("calm", "{}");
        assertThat(bystander.next(BOUND).path("event").path("topic").asText()).isEqualTo("calm");
        Await.until(() -> gauge("events.websocket.open") == 1, BOUND, "the bad sockets are closed and released");
        assertThat(meter("events.websocket.bad-messages")).isEqualTo(10);
    }

    @Test
    void aClientSendingFasterThanTheBoundGetsAnErrorForWhatItSentBeyond() throws Exception {
        start(ConfigOverride.config("websocket.maxMessagesPerSecond", "1"));
        TestSocket socket = open("/events/ws?topic=fast");
        for (int i = 0; i < 3; i++) {
            socket.send("{\"subscribe\":[\"fast\"],\"ref\":" + i + "}");
        }
        List<JsonNode> answers = List.of(socket.next(BOUND), socket.next(BOUND), socket.next(BOUND));
        assertThat(answers.get(0).path("type").asText()).isEqualTo("subscribed");
        // One message a second: the two that follow within the same second are over the bound (a machine that stalls
        // for two seconds between them would let one through; the bound is still shown by the other).
        assertThat(answers.subList(1, 3)).anySatisfy(answer -> {
            assertThat(answer.path("type").asText()).isEqualTo("error");
            assertThat(answer.path("code").asInt()).isEqualTo(429);
        });
        assertThat(meter("events.websocket.limited")).isPositive();
    }

    @Test
    void refusalsComeBeforeTheUpgradeAsJson() throws Exception {
        start(ConfigOverride.config("websocket.maxSockets", "1"));
        assertThat(upgradeStatus("/events/ws?topic=bad%20name")).isEqualTo(400);
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> plain = http.send(HttpRequest.newBuilder(URI.create(url("/events/ws?topic=a"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(plain.statusCode()).isEqualTo(400);
        assertThat(plain.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
        assertThat(plain.body()).contains("Upgrade: websocket");

        open("/events/ws?topic=a");
        assertThat(upgradeStatus("/events/ws?topic=a")).as("one socket at most").isEqualTo(503);
        assertThat(meter("events.websocket.refused")).isEqualTo(1);
    }

    @Test
    void aSocketTheHubHasNoRoomForIsClosedWithTryAgainLater() throws Exception {
        start(ConfigOverride.config("events.maxParked", "1"));
        TestSocket first = open("/events/ws?topic=full");
        Await.until(() -> gauge("events.parked") == 1, BOUND, "the one place taken");
        TestSocket second = open("/events/ws?topic=full");
        JsonNode refused = second.next(BOUND);
        assertThat(refused.path("type").asText()).isEqualTo("refused");
        assertThat(second.closeCode(BOUND)).isEqualTo(StatusCode.TRY_AGAIN_LATER);
        assertThat(meter("events.websocket.hub-refusals")).isEqualTo(1);
        publish("full", "{}");
        assertThat(first.next(BOUND).path("type").asText()).as("the first socket goes on").isEqualTo("event");
    }

    @Test
    void anIdleSocketIsPingedAndStaysSubscribed() throws Exception {
        start(ConfigOverride.config("websocket.heartbeat", "200ms"));
        TestSocket socket = open("/events/ws?topic=quiet");
        Await.until(() -> socket.pings() >= 2, BOUND, "two pings");
        publish("quiet", "{}");
        assertThat(socket.next(BOUND).path("event").path("id").asLong()).isEqualTo(1);
        assertThat(meter("events.websocket.heartbeats")).isGreaterThanOrEqualTo(2);
    }

    @Test
    void stoppingClosesEverySocketWithClosingAnd1001() throws Exception {
        start();
        List<TestSocket> open = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            open.add(open("/events/ws?topic=stop"));
        }
        Await.until(() -> gauge("events.parked") == 6, BOUND, "6 sockets parked");
        support.after();
        support = null;
        for (TestSocket socket : open) {
            JsonNode closing = socket.next(BOUND);
            assertThat(closing.path("type").asText()).isEqualTo("closing");
            assertThat(closing.path("retryAfterSeconds").asInt()).isBetween(0, 3);
            assertThat(socket.closeCode(BOUND)).isEqualTo(StatusCode.SHUTDOWN);
        }
    }

    @Test
    void aReaderThatTakesNothingIsShedAndTheOthersGoOn() throws Exception {
        start(ConfigOverride.config("events.maxEventSize", "64KiB"), ConfigOverride.config("websocket.drainTimeout", "2s"));
        TestSocket bystander = open("/events/ws?topic=stall");
        try (java.net.Socket stalled = new java.net.Socket()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new java.net.InetSocketAddress("127.0.0.1", support.getLocalPort()));
            stalled.getOutputStream().write(("GET /events/ws?topic=stall HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            Await.until(() -> gauge("events.websocket.open") == 2, BOUND, "both open");
            String body = "{\"pad\":\"" + "x".repeat(60_000) + "\"}";
            int published = 0;
            try (LoopbackHttp http = new LoopbackHttp()) {
                for (; published < 300 && meter("events.websocket.shed") == 0; published++) {
                    assertThat(http.postJson(url("/events?topic=stall"), body).status()).isEqualTo(200);
                    assertThat(bystander.next(BOUND).path("event").path("id").asLong()).as("the bystander keeps up")
                            .isEqualTo(published + 1);
                }
            }
            assertThat(meter("events.websocket.shed")).as("shed after %d events", published).isEqualTo(1);
            Await.until(() -> gauge("events.websocket.open") == 1, BOUND, "the stalled socket is gone");
            assertThat(gauge("events.websocket.unsent-bytes")).isZero();
        }
        publish("stall", "{}");
        assertThat(bystander.next(BOUND).path("type").asText()).isEqualTo("event");
    }

    private int upgradeStatus(String pathAndQuery) throws Exception {
        return upgradeStatus(client, pathAndQuery);
    }

    private int upgradeStatus(WebSocketClient with, String pathAndQuery) throws Exception {
        try {
            TestSocket.open(with, wsUri(pathAndQuery), Map.of(), BOUND).close();
            return 101;
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(UpgradeException.class);
            return ((UpgradeException) e.getCause()).getResponseStatusCode();
        }
    }

    /**
     * Write calls the application pool's threads ({@code dw-}, not {@code dw-admin-}) have made so far: the sum of
     * {@code syscw} over Linux's per-thread I/O counters of the threads named so. A thread that ends takes its count.
     */
    private static long serverWriteCalls() throws IOException {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).trim();
                    if (name.startsWith("dw-") && !name.startsWith("dw-admin")) {
                        sum += Files.readAllLines(task.resolve("io")).stream().filter(line -> line.startsWith("syscw:"))
                                .mapToLong(line -> Long.parseLong(line.substring("syscw:".length()).trim()))
                                .findFirst().orElseThrow();
                    }
                } catch (NoSuchFileException ended) {
                    // the thread ended between the listing and the read
                }
            }
        }
        return sum;
    }

    /** Opens {@code count} sockets and keeps them, or closes what it opened and answers false if one is refused. */
    private boolean openAll(int count, String pathAndQuery) {
        List<TestSocket> opened = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                opened.add(TestSocket.open(client, wsUri(pathAndQuery), Map.of(), BOUND));
            }
            sockets.addAll(opened);
            return true;
        } catch (Exception refused) {
            opened.forEach(TestSocket::close);
            return false;
        }
    }

    private TestSocket open(String pathAndQuery) throws Exception {
        TestSocket socket = TestSocket.open(client, wsUri(pathAndQuery), Map.of(), BOUND);
        sockets.add(socket);
        return socket;
    }

    private void start(ConfigOverride... more) throws Exception {
        List<ConfigOverride> overrides = new ArrayList<>(List.of(ConfigOverride.randomPorts(),
                ConfigOverride.config("events.tickPeriod", "0s")));
        overrides.addAll(List.of(more));
        support = new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml", overrides.toArray(ConfigOverride[]::new));
        support.before();
    }

    private void publish(String topic, String json) {
        try (LoopbackHttp http = new LoopbackHttp()) {
            assertThat(http.postJson(url("/events?topic=" + topic), json).status()).isEqualTo(200);
        }
    }

    private URI wsUri(String pathAndQuery) {
        return URI.create("ws://127.0.0.1:" + support.getLocalPort() + pathAndQuery);
    }

    private String url(String pathAndQuery) {
        return LoopbackHttp.url(support.getLocalPort(), pathAndQuery);
    }

    private long meter(String name) {
        return support.getEnvironment().metrics().getMeters().get(name).getCount();
    }

    private long gauge(String name) {
        Gauge<?> gauge = support.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).longValue();
    }
}
