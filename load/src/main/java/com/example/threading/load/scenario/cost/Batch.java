package com.example.threading.load.scenario.cost;

import com.example.threading.load.engine.jvm.ServerMetrics;
import com.example.threading.load.service.ServerThreadsCpu;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * One event to many waiting clients of one service, round by round, each client on an HTTP/1.1 connection of its own:
 * {@link Shape#POLLS} parked long-polls ({@code GET /events}, answered and polled again on the same connection),
 * {@link Shape#STREAMS} Server-Sent Events streams ({@code GET /events/stream}) or {@link Shape#SOCKETS} WebSockets
 * ({@code GET /events/ws}, on Jetty's WebSocket client). Once the service counts every client, a round publishes one
 * event ({@code POST /events}, {@code {"round":n}}) and waits for every client to receive it; it measures the server's
 * CPU time from just before the publish to the last receipt, without its JIT compiler threads
 * ({@link ServerThreadsCpu}), and the time from the publish to the last receipt.
 *
 * <p>Thread-safety: the scenario's thread calls {@link #open}, {@link #round} and {@link #close}, in this order. The
 * polls and streams are read on that thread (one selector); the sockets' messages arrive on Jetty's threads and are
 * counted into an atomic and a latch.
 */
final class Batch implements AutoCloseable {

    /** What the clients wait with. */
    enum Shape {
        /** Long-polls parked until the next event. */
        POLLS("events-batch-polls", "GET /events", "events.parked"),
        /** Server-Sent Events streams. */
        STREAMS("events-batch-sse", "GET /events/stream", "events.sse.open"),
        /** WebSockets. */
        SOCKETS("events-batch-ws", "GET /events/ws", "events.websocket.open");

        final String name;
        final String request;
        final String gauge;

        Shape(String name, String request, String gauge) {
            this.name = name;
            this.request = request;
            this.gauge = gauge;
        }
    }

    /** One round's figures: the server's CPU per answer (µs) and the publish to the last receipt (ms). */
    record Round(double serverCpuMicrosPerAnswer, double lastReceiptMs) {
    }

    /** Connections opened at once before waiting for them (a burst of thousands overflows the accept queue). */
    private static final int OPENING_AT_ONCE = 500;
    private static final long ROUND_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Shape shape;
    private final int clients;
    private final URI app;
    private final String topic;
    private final ServerMetrics metrics;
    private final ServerThreadsCpu cpu;
    private final List<SocketChannel> connections = new ArrayList<>();
    private final Selector selector;
    private final ByteBuffer readBuffer = ByteBuffer.allocate(16 * 1024);
    private final AtomicInteger socketReceipts = new AtomicInteger();
    private volatile CountDownLatch socketsReceived = new CountDownLatch(0);
    private volatile String marker = "";
    private WebSocketClient sockets;
    private int rounds;

    /** {@code clients} clients of {@code shape} on {@code topic} of the service at {@code app}, whose admin port {@code metrics} reads. */
    Batch(Shape shape, int clients, URI app, String topic, ServerMetrics metrics, ServerThreadsCpu cpu) throws IOException {
        this.shape = shape;
        this.clients = clients;
        this.app = app;
        this.topic = topic;
        this.metrics = metrics;
        this.cpu = cpu;
        this.selector = Selector.open();
    }

    /** Opens every client and waits until the service counts them all. */
    void open(long deadlineNanos) throws Exception {
        if (shape == Shape.SOCKETS) {
            sockets = new WebSocketClient();
            sockets.setIdleTimeout(java.time.Duration.ofMinutes(5));
            sockets.start();
            for (int i = 0; i < clients; i += OPENING_AT_ONCE) {
                List<java.util.concurrent.CompletableFuture<Session>> opening = new ArrayList<>();
                for (int j = i; j < Math.min(clients, i + OPENING_AT_ONCE); j++) {
                    opening.add(sockets.connect(new BatchSocket(this::socketText), URI.create("ws://" + app.getAuthority() + "/events/ws?topic=" + topic)));
                }
                for (java.util.concurrent.CompletableFuture<Session> session : opening) {
                    session.get(30, TimeUnit.SECONDS);
                }
            }
        } else {
            String path = shape == Shape.POLLS ? "/events?topic=" + topic + "&timeout=60" : "/events/stream?topic=" + topic;
            for (int i = 0; i < clients; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress(app.getHost(), app.getPort()));
                channel.configureBlocking(false);
                channel.register(selector, SelectionKey.OP_READ, new Reading());
                connections.add(channel);
                if (shape == Shape.STREAMS) {
                    send(channel, "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
                }
                if ((i + 1) % OPENING_AT_ONCE == 0) {
                    Thread.sleep(20);
                }
            }
        }
        if (shape != Shape.POLLS) {
            awaitCounted(deadlineNanos); // a poll is sent, and counted, round by round
            prime(deadlineNanos);
        }
    }

    /**
     * Publishes until every stream or socket has received an event: the service counts a stream or socket open a moment
     * before its subscription takes events, and one that is counted but not yet subscribed would miss a round's event.
     */
    private void prime(long deadlineNanos) throws IOException {
        marker = "\"prime\":true}";
        for (SelectionKey key : selector.keys()) {
            ((Reading) key.attachment()).reset();
        }
        socketsReceived = new CountDownLatch(clients);
        socketReceipts.set(0);
        int received = 0;
        for (int attempt = 0; attempt < 30 && received < clients; attempt++) {
            try (SocketChannel publish = publish("{\"prime\":true}")) {
                long until = Math.min(deadlineNanos, System.nanoTime() + TimeUnit.SECONDS.toNanos(2));
                received = shape == Shape.SOCKETS ? awaitSocketsUntil(until) : readUntil(until, received);
                readToEnd(publish);
            }
        }
        if (received < clients) {
            throw new IllegalStateException("only " + received + " of " + clients + " " + shape.request + " received an event in 30 publishes");
        }
    }

    private int awaitSocketsUntil(long untilNanos) {
        try {
            socketsReceived.await(Math.max(0, untilNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return socketReceipts.get();
    }

    /** One round: polls sent (long-poll), every client counted, one event published, every receipt awaited. */
    Round round(long deadlineNanos) throws Exception {
        rounds++;
        marker = "\"round\":" + rounds + "}";
        if (shape == Shape.POLLS) {
            String poll = "GET /events?topic=" + topic + "&timeout=60 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
            for (SocketChannel channel : connections) {
                send(channel, poll);
            }
            awaitCounted(deadlineNanos);
        }
        for (SelectionKey key : selector.keys()) {
            ((Reading) key.attachment()).reset();
        }
        socketsReceived = new CountDownLatch(clients);
        socketReceipts.set(0);
        long cpuBefore = cpu.nanos();
        long start = System.nanoTime();
        try (SocketChannel publish = publish("{\"round\":" + rounds + "}")) {
            long last = shape == Shape.SOCKETS ? awaitSockets(deadlineNanos) : readAll(deadlineNanos);
            long cpuAfter = cpu.nanos();
            // The publish's own answer is read after the last receipt, so that reading it never delays one.
            String answer = readToEnd(publish);
            if (!answer.startsWith("HTTP/1.1 200")) {
                throw new IllegalStateException("the publish was answered " + answer.lines().findFirst().orElse("nothing"));
            }
            return new Round((cpuAfter - cpuBefore) / 1000.0 / clients, (last - start) / 1e6);
        }
    }

    private void awaitCounted(long deadlineNanos) throws InterruptedException {
        double counted = metrics.awaitValue(shape.gauge, value -> value >= clients, Math.min(deadlineNanos, System.nanoTime() + ROUND_TIMEOUT_NANOS));
        if (counted < clients) {
            throw new IllegalStateException("the service counts " + counted + " of " + clients + " (" + shape.gauge + ")");
        }
    }

    /** Reads the polls' answers or the streams' frames until every client has the round's event; when the last one came. */
    private long readAll(long deadlineNanos) throws IOException {
        long until = Math.min(deadlineNanos, System.nanoTime() + ROUND_TIMEOUT_NANOS);
        int done = readUntil(until, 0);
        if (done < clients) {
            throw new IllegalStateException(done + " of " + clients + " " + shape.request + " received round " + rounds);
        }
        return lastReceipt;
    }

    private long lastReceipt;

    /** Reads until every client has the marker or {@code untilNanos}; how many have it ({@code done} had it before). */
    private int readUntil(long untilNanos, int done) throws IOException {
        while (done < clients && System.nanoTime() < untilNanos) {
            long waitMs = Math.max(1, Math.min(1_000, TimeUnit.NANOSECONDS.toMillis(untilNanos - System.nanoTime())));
            if (selector.select(waitMs) == 0) {
                continue;
            }
            var selected = selector.selectedKeys().iterator();
            while (selected.hasNext()) {
                SelectionKey key = selected.next();
                selected.remove();
                SocketChannel channel = (SocketChannel) key.channel();
                readBuffer.clear();
                int read = channel.read(readBuffer);
                if (read < 0) {
                    throw new IllegalStateException("the service closed a connection of " + shape.request);
                }
                if (((Reading) key.attachment()).received(readBuffer, read, marker, shape == Shape.POLLS)) {
                    done++;
                    lastReceipt = System.nanoTime();
                }
            }
        }
        return done;
    }

    private long awaitSockets(long deadlineNanos) throws InterruptedException {
        long wait = Math.min(deadlineNanos, System.nanoTime() + ROUND_TIMEOUT_NANOS) - System.nanoTime();
        if (!socketsReceived.await(Math.max(0, wait), TimeUnit.NANOSECONDS)) {
            throw new IllegalStateException(socketReceipts.get() + " of " + clients + " sockets received round " + rounds);
        }
        return lastSocketReceipt;
    }

    private volatile long lastSocketReceipt;

    /** Sends the publish on a blocking connection of its own, not read yet. */
    private SocketChannel publish(String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        SocketChannel channel = SocketChannel.open(new InetSocketAddress(app.getHost(), app.getPort()));
        send(channel, "POST /events?topic=" + topic + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Connection: close\r\nContent-Length: " + bytes.length + "\r\n\r\n" + body);
        return channel;
    }

    private static String readToEnd(SocketChannel channel) throws IOException {
        channel.socket().setSoTimeout(30_000);
        return new String(channel.socket().getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    private static void send(SocketChannel channel, String text) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    @Override
    public void close() throws Exception {
        for (SocketChannel channel : connections) {
            channel.close();
        }
        selector.close();
        if (sockets != null) {
            sockets.stop();
        }
    }

    /** One connection's bytes of the current round: whether the round's marker has come yet. */
    private static final class Reading {
        private final StringBuilder tail = new StringBuilder();
        private boolean received;

        void reset() {
            tail.setLength(0);
            received = false;
        }

        /**
         * Takes {@code read} bytes; true the first time the round's {@code marker} is among what came (for a whole
         * answer, once its body is complete too: the next poll goes on the same connection).
         */
        boolean received(ByteBuffer buffer, int read, String marker, boolean wholeAnswer) {
            if (received) {
                return false;
            }
            tail.append(new String(buffer.array(), 0, read, StandardCharsets.ISO_8859_1));
            if (tail.indexOf(marker) >= 0 && (!wholeAnswer || complete(tail))) {
                received = true;
                tail.setLength(0);
                return true;
            }
            if (!wholeAnswer && tail.length() > 256) {
                tail.delete(0, tail.length() - 64); // the marker may straddle two reads
            }
            return false;
        }
    }

    /** Whether {@code text} holds a whole HTTP answer: its head and {@code Content-Length} bytes of body. */
    private static boolean complete(CharSequence text) {
        String answer = text.toString();
        int head = answer.indexOf("\r\n\r\n");
        if (head < 0) {
            return false;
        }
        int at = answer.toLowerCase(java.util.Locale.ROOT).indexOf("content-length:");
        if (at < 0 || at > head) {
            throw new IllegalStateException("a poll's answer without Content-Length: " + answer.substring(0, head));
        }
        int end = answer.indexOf("\r\n", at);
        int length = Integer.parseInt(answer.substring(at + "content-length:".length(), end).trim());
        return answer.length() - head - 4 >= length;
    }

    /** A socket's message, on a Jetty thread; {@code counted} is the socket's last counted marker, returned updated. */
    private String socketText(String counted, String text) {
        String current = marker;
        if (!current.isEmpty() && !current.equals(counted) && text.contains(current)) {
            lastSocketReceipt = System.nanoTime();
            socketReceipts.incrementAndGet();
            socketsReceived.countDown();
            return current;
        }
        return counted;
    }
}
