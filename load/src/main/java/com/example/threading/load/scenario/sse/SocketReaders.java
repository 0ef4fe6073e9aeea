package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.http.Protocol;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * WebSocket readers of {@code GET /events/ws} on Jetty's own WebSocket client (the tool writes no WebSocket framing
 * itself), read by Jetty's selector and pool threads without a thread per socket: over HTTP/1.1 each socket is a
 * connection of its own; over h2c each is a stream opened by RFC 8441's extended CONNECT, many to a connection (Jetty
 * opens another when one carries as many streams as the server allows).
 *
 * <p>Thread-safety: the scenario's thread opens and closes; each socket's messages arrive on Jetty's threads, in order
 * per socket, and are handed to the {@link Listener} there; the counters are atomic.
 */
final class SocketReaders implements AutoCloseable {

    /** Sockets opened at once before waiting for them (a burst of thousands of connects overflows the accept queue). */
    private static final int OPENING_AT_ONCE = 500;

    /** What a reader receives. */
    interface Listener {
        /** A text message of socket {@code socket}, read at {@code atNanos} ({@link System#nanoTime()}); on a Jetty thread. */
        void message(int socket, String text, long atNanos);
    }

    /** How long {@link #close()} waits for the sockets' close handshakes. */
    private static final int CLOSING_SECONDS = 30;

    private final HttpClient http;
    private final WebSocketClient client;
    private final List<Session> sessions = new ArrayList<>();
    private final AtomicInteger failed = new AtomicInteger();
    private volatile String lastFailure = "";

    /** A started client for up to {@code sockets} sockets over {@code protocol}. */
    SocketReaders(Protocol protocol, int sockets) throws Exception {
        http = protocol == Protocol.H2C ? new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client())) : new HttpClient();
        client = new WebSocketClient(http);
        http.setMaxConnectionsPerDestination(protocol == Protocol.H2C ? 256 : sockets + 16);
        http.setMaxRequestsQueuedPerDestination(sockets + 1024);
        http.setConnectTimeout(10_000);
        client.setIdleTimeout(Duration.ofMinutes(10)); // idle between events for as long as the scenario wants
        client.setStopTimeout(0); // close() waits for the sockets itself
        client.start();
    }

    /** Opens a socket per URL (at most {@value #OPENING_AT_ONCE} connecting at once), until {@code deadlineNanos}; how many opened. */
    int open(List<URI> urls, Listener listener, long deadlineNanos) throws Exception {
        for (int from = 0; from < urls.size() && System.nanoTime() < deadlineNanos; from += OPENING_AT_ONCE) {
            List<CompletableFuture<Session>> connecting = new ArrayList<>();
            for (int i = from; i < Math.min(urls.size(), from + OPENING_AT_ONCE); i++) {
                connecting.add(client.connect(new SocketReader(sessions.size() + connecting.size(), listener), urls.get(i)));
            }
            for (CompletableFuture<Session> future : connecting) {
                try {
                    sessions.add(future.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS));
                } catch (Exception e) {
                    failed.incrementAndGet();
                    lastFailure = String.valueOf(e.getCause() != null ? e.getCause() : e);
                }
            }
        }
        return sessions.size();
    }

    int failed() {
        return failed.get();
    }

    String lastFailure() {
        return lastFailure;
    }

    /**
     * Closes every socket with 1000, waits up to {@value #CLOSING_SECONDS} s for the close handshakes (then drops the
     * connections of any left), and stops the client. The client stops without its own graceful wait: over h2c, Jetty's
     * client (12.0.21) keeps some sessions in its tracker after their close handshakes completed, and its graceful stop
     * then waits out the whole stop timeout.
     */
    @Override
    public void close() throws Exception {
        for (Session session : sessions) {
            session.close(StatusCode.NORMAL, "done", Callback.NOOP);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSING_SECONDS);
        while (sessions.stream().anyMatch(Session::isOpen) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        sessions.stream().filter(Session::isOpen).forEach(Session::disconnect);
        try {
            client.stop();
        } finally {
            http.stop();
        }
    }
}
