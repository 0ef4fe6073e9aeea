package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.TestSocket;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.api.exceptions.UpgradeException;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalWebSocket} (at most 2 sockets, 64 KB unsent each) in a bare Dropwizard application, a fresh one per
 * test: a published message and a client's own reach both sockets, a third is refused with 503 before the upgrade, a
 * reader that never reads is dropped (its place is free again) while the other socket receives every message, and
 * the stop closes every socket with 1001.
 */
class MinimalWebSocketTest {

    /** A copier's application: the listing's two lines; the test publishes through {@link #sockets}. */
    public static final class App extends Application<Configuration> {
        private volatile MinimalWebSocket sockets;

        @Override
        public void run(Configuration configuration, Environment environment) {
            // Room for four of the test's 60 KB messages: a reader can read a message before Jetty has run the write's
            // callback on the server (the count of unsent characters falls then), so with room for one message a
            // reader that keeps up could be dropped as the next is published. The stalled socket still outgrows it.
            sockets = new MinimalWebSocket(2, 256 * 1024);
            sockets.register(environment, "/minimal/ws");
        }
    }

    private static final Duration BOUND = Duration.ofSeconds(20);
    private final WebSocketClient client = new WebSocketClient();
    private DropwizardTestSupport<Configuration> app;

    @BeforeEach
    void start() throws Exception {
        client.start();
        app = new DropwizardTestSupport<>(App.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
        app.before();
    }

    @AfterEach
    void stop() throws Exception {
        client.stop();
        app.after();
    }

    @Test
    void messagesReachEverySocketAndAThirdIsRefused() throws Exception {
        try (TestSocket first = listed(open()); TestSocket second = listed(open())) {
            assertThat(first.next(BOUND).path("listed").asInt()).as("second's echo reaches first too").isEqualTo(1);
            assertThatUpgradeIsRefusedWith(503);
            app.<App>getApplication().sockets.publish("{\"price\":101.5}");
            assertThat(first.next(BOUND).path("price").asDouble()).isEqualTo(101.5);
            assertThat(second.next(BOUND).path("price").asDouble()).isEqualTo(101.5);
            first.send("{\"from\":\"first\"}");
            assertThat(first.next(BOUND).path("from").asText()).isEqualTo("first");
            assertThat(second.next(BOUND).path("from").asText()).isEqualTo("first");
        }
    }

    @Test
    void aReaderThatNeverReadsIsDroppedWhileTheOtherSocketGetsEveryMessage() throws Exception {
        try (Socket stalled = new Socket(); TestSocket reader = open()) {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", app.getLocalPort()));
            OutputStream request = stalled.getOutputStream();
            request.write(("GET /minimal/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            request.flush();
            assertThat(responseHead(stalled)).startsWith("HTTP/1.1 101"); // upgraded; from now on it reads nothing
            listed(reader);
            String pad = "x".repeat(60_000);
            int published = 0;
            boolean dropped = false;
            while (!dropped) {
                assertThat(published).as("dropped within 500 messages of 60 KB").isLessThan(500);
                app.<App>getApplication().sockets.publish("{\"n\":" + published + ",\"pad\":\"" + pad + "\"}");
                assertThat(reader.next(BOUND).path("n").asInt()).isEqualTo(published);
                published++;
                dropped = !refusedNow(); // a free place means the stalled socket was dropped
            }
        }
    }

    @Test
    void theStopClosesEverySocketWith1001() throws Exception {
        TestSocket socket = open();
        app.after();
        assertThat(socket.closeCode(BOUND)).isEqualTo(StatusCode.SHUTDOWN);
        app = new DropwizardTestSupport<>(App.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
        app.before(); // for stop()
    }

    private static String responseHead(Socket socket) throws java.io.IOException {
        socket.setSoTimeout((int) BOUND.toMillis());
        StringBuilder head = new StringBuilder();
        java.io.InputStream in = socket.getInputStream();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int next = in.read();
            if (next < 0) {
                break;
            }
            head.append((char) next);
        }
        return head.toString();
    }

    /**
     * Returns {@code socket} once the server lists it among those it publishes to: the client's 101 can come before the
     * server has run the socket's open callback. A message the socket sends is published to every listed socket, and
     * the server reads it only after that callback, so its echo proves the socket is listed.
     */
    private static TestSocket listed(TestSocket socket) throws Exception {
        socket.send("{\"listed\":1}");
        assertThat(socket.next(BOUND).path("listed").asInt()).isEqualTo(1);
        return socket;
    }

    private TestSocket open() throws Exception {
        return TestSocket.open(client, URI.create("ws://127.0.0.1:" + app.getLocalPort() + "/minimal/ws"), Map.of(), BOUND);
    }

    /** Whether a new socket is refused now; one that is not is closed again at once. */
    private boolean refusedNow() throws Exception {
        try {
            open().close();
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof UpgradeException upgrade && upgrade.getResponseStatusCode() == 503;
        }
    }

    private void assertThatUpgradeIsRefusedWith(int status) throws Exception {
        ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, this::open);
        assertThat(refused.getCause()).isInstanceOf(UpgradeException.class);
        assertThat(((UpgradeException) refused.getCause()).getResponseStatusCode()).isEqualTo(status);
    }
}
