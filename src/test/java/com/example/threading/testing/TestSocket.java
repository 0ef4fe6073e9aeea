package com.example.threading.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * A test's end of one socket, on Jetty's own WebSocket client: every text message the server sends, parsed, in order;
 * the close code; the pings it was sent. Reads whatever comes (auto-demanding). Public: Jetty binds a listener's
 * methods through a public lookup.
 *
 * <p>Thread-safety: Jetty's threads deliver the messages and the close into concurrent holders; the test thread reads
 * them and sends.
 */
public final class TestSocket implements Session.Listener.AutoDemanding, AutoCloseable {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> closed = new CompletableFuture<>();
    private final AtomicInteger pings = new AtomicInteger();
    private volatile Session session;

    /** Opens a socket on {@code client} to {@code uri} with {@code headers}; waits at most {@code bound}. */
    public static TestSocket open(WebSocketClient client, URI uri, Map<String, String> headers, Duration bound) throws Exception {
        TestSocket socket = new TestSocket();
        ClientUpgradeRequest request = new ClientUpgradeRequest(uri);
        headers.forEach(request::setHeader);
        client.connect(socket, request).get(bound.toMillis(), TimeUnit.MILLISECONDS);
        return socket;
    }

    @Override
    public void onWebSocketOpen(Session opened) {
        session = opened;
    }

    @Override
    public void onWebSocketText(String text) {
        try {
            messages.add(MAPPER.readTree(text));
        } catch (IOException e) {
            messages.add(MAPPER.createObjectNode().put("type", "not-json").put("text", text));
        }
    }

    @Override
    public void onWebSocketPing(ByteBuffer payload) {
        pings.incrementAndGet();
        session.sendPong(payload, Callback.NOOP);
    }

    @Override
    public void onWebSocketClose(int statusCode, String reason) {
        closed.complete(statusCode);
    }

    @Override
    public void onWebSocketError(Throwable cause) {
        closed.completeExceptionally(cause);
    }

    /** Sends {@code text} and waits until it is written. */
    public void send(String text) throws Exception {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        session.sendText(text, Callback.from(() -> sent.complete(null), sent::completeExceptionally));
        sent.get(30, TimeUnit.SECONDS);
    }

    /** Sends binary {@code bytes}. */
    public void sendBinary(byte[] bytes) throws Exception {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        session.sendBinary(ByteBuffer.wrap(bytes), Callback.from(() -> sent.complete(null), sent::completeExceptionally));
        sent.get(30, TimeUnit.SECONDS);
    }

    /** The next message, within {@code bound}; fails the test without one. */
    public JsonNode next(Duration bound) throws InterruptedException {
        JsonNode message = messages.poll(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (message == null) {
            throw new AssertionError("no message within " + bound);
        }
        return message;
    }

    /** The close code, once the socket is closed, within {@code bound}. */
    public int closeCode(Duration bound) throws Exception {
        return closed.get(bound.toMillis(), TimeUnit.MILLISECONDS);
    }

    public int pings() {
        return pings.get();
    }

    @Override
    public void close() {
        Session open = session;
        if (open != null && open.isOpen()) {
            open.close();
        }
    }
}
