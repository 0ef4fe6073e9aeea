package com.example.threading.load.scenario.sse;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * WebSocket readers of {@code GET /events/ws} on Jetty's own WebSocket client (the tool writes no WebSocket framing
 * itself): one HTTP/1.1 connection per socket (the service offers no WebSocket over HTTP/2), read by Jetty's selector
 * and pool threads without a thread per socket.
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

    private final HttpClient http = new HttpClient();
    private final WebSocketClient client = new WebSocketClient(http);
    private final List<Session> sessions = new ArrayList<>();
    private final AtomicInteger failed = new AtomicInteger();
    private volatile String lastFailure = "";

    /** A started client for up to {@code sockets} sockets. */
    SocketReaders(int sockets) throws Exception {
        http.setMaxConnectionsPerDestination(sockets + 16);
        http.setConnectTimeout(10_000);
        client.setIdleTimeout(Duration.ofMinutes(10)); // idle between events for as long as the scenario wants
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

    /** Closes every socket and stops the client. */
    @Override
    public void close() throws Exception {
        for (Session session : sessions) {
            session.disconnect();
        }
        client.stop();
        http.stop();
    }
}
