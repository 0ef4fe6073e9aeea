package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.jvm.ServerMetrics;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One event to many waiting clients, round by round: N Server-Sent Events streams of one topic, then N long-polls of
 * another, both over h2c, then N WebSockets of a third (HTTP/1.1), on the same service. Each round publishes one event and measures the server's
 * {@code events.event-to-last-write} for that batch (from /prometheus: its sum moves by exactly that batch's time) and,
 * on the client, the time from just before the publish is sent to the last stream, poll or socket receiving it.
 *
 * <p>Thread-safety: called on the scenario's thread; the readers record into atomics and a latch.
 */
final class BatchRounds {

    static final String LAST_WRITE = ServerMetrics.EVENT_TO_LAST_WRITE;
    static final String QUEUED = "events_event_to_queued_seconds";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration ROUND_LIMIT = Duration.ofSeconds(120);

    /**
     * One round: the server's event-to-last-write and event-to-queued (ms; NaN when the batch was not timed alone), the
     * client's publish → last receipt and → median receipt (ms), how many of how many received the event.
     */
    record Round(int round, boolean warmUp, double serverLastWriteMs, double serverQueuedMs, double clientLastMs, double clientMedianMs,
                 int received, int expected) {
    }

    private final URI app;
    private final ServerMetrics server;
    private final SimpleHttp publisher = SimpleHttp.http1();

    BatchRounds(URI app, ServerMetrics server) {
        this.app = app;
        this.server = server;
    }

    /** {@code streams} SSE streams of {@code topic} over h2c, then {@code warmUp + rounds} rounds. */
    List<Round> sse(String topic, int streams, int warmUp, int rounds, long deadlineNanos) throws Exception {
        Receipts receipts = new Receipts(streams);
        SseReaders.Listener listener = (reader, id, type, data, at) -> {
            if (type == null || type.equals("message")) {
                receipts.received(reader, roundOf(data), at);
            }
        };
        List<Round> figures;
        try (SseReaders readers = new SseReaders(Protocol.H2C, streams)) {
            List<URI> urls = new ArrayList<>(streams);
            for (int i = 0; i < streams; i++) {
                urls.add(app.resolve("/events/stream?topic=" + topic));
            }
            int open = readers.open(urls, 0, listener, deadlineNanos);
            if (open < streams) {
                throw new IllegalStateException("only " + open + " of " + streams + " streams opened over h2c (" + readers.failed() + " failed: "
                        + readers.lastFailure() + ")");
            }
            figures = pushRounds(topic, receipts, "events.sse.open", warmUp, rounds, deadlineNanos);
        }
        server.awaitValue("events.sse.open", value -> value == 0, Math.min(deadlineNanos, System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
        return figures;
    }

    /** {@code sockets} WebSockets of {@code topic} over {@code protocol}, then {@code warmUp + rounds} rounds. */
    List<Round> websocket(String topic, Protocol protocol, int sockets, int warmUp, int rounds, long deadlineNanos) throws Exception {
        Receipts receipts = new Receipts(sockets);
        SocketReaders.Listener listener = (socket, text, at) -> {
            JsonNode message = json(text);
            if (message.path("type").asText().equals("event")) {
                receipts.received(socket, message.path("event").path("data").path("round").asInt(-2), at);
            }
        };
        List<Round> figures;
        try (SocketReaders readers = new SocketReaders(protocol, sockets)) {
            List<URI> urls = new ArrayList<>(sockets);
            URI base = URI.create("ws://" + app.getAuthority());
            for (int i = 0; i < sockets; i++) {
                urls.add(base.resolve("/events/ws?topic=" + topic));
            }
            int open = readers.open(urls, listener, deadlineNanos);
            if (open < sockets) {
                throw new IllegalStateException("only " + open + " of " + sockets + " sockets opened over " + protocol.label() + " (" + readers.failed() + " failed: "
                        + readers.lastFailure() + ")");
            }
            figures = pushRounds(topic, receipts, "events.websocket.open", warmUp, rounds, deadlineNanos);
        }
        server.awaitValue("events.websocket.open", value -> value == 0,
                Math.min(deadlineNanos, System.nanoTime() + TimeUnit.SECONDS.toNanos(30)));
        return figures;
    }

    /**
     * The rounds of clients that stay subscribed (streams, sockets): once the service's gauge {@code openGauge} counts them
     * all, each round publishes one event and times its receipt by every client.
     */
    private List<Round> pushRounds(String topic, Receipts receipts, String openGauge, int warmUp, int rounds, long deadlineNanos)
            throws Exception {
        int clients = receipts.clients();
        double open = server.awaitValue(openGauge, value -> value >= clients, deadlineNanos);
        if (open < clients) {
            throw new IllegalStateException("the service counts " + open + " of " + clients + " (" + openGauge + ")");
        }
        List<Round> figures = new ArrayList<>();
        for (int r = 0; r < warmUp + rounds; r++) {
            CountDownLatch all = receipts.startRound(r);
            ServerMetrics.Timer lastWrite = server.timer(LAST_WRITE);
            ServerMetrics.Timer queued = server.timer(QUEUED);
            long start = System.nanoTime();
            publish(topic, r);
            all.await(Math.max(0, Math.min(deadlineNanos, start + ROUND_LIMIT.toNanos()) - System.nanoTime()), TimeUnit.NANOSECONDS);
            figures.add(round(r, r < warmUp, lastWrite, queued, receipts.times(start), clients, deadlineNanos));
            Thread.sleep(500); // every client's next poll parked again before the next round
        }
        return figures;
    }

    /** Rounds of {@code polls} long-polls of {@code topic} over h2c, each round's polls sent anew and parked before the publish. */
    List<Round> longPoll(String topic, int polls, int warmUp, int rounds, long deadlineNanos) throws Exception {
        List<Round> figures = new ArrayList<>();
        long parkedBefore = (long) server.value("events.parked");
        long cursor = 0;
        try (ParkedPolls client = new ParkedPolls(polls, TimeUnit.MINUTES.toMillis(10))) {
            for (int r = 0; r < warmUp + rounds; r++) {
                ParkedPolls.Round round = client.send(app, topic, cursor, polls, 300);
                double parked = server.awaitValue("events.parked", value -> value >= parkedBefore + polls,
                        Math.min(deadlineNanos, System.nanoTime() + ROUND_LIMIT.toNanos()));
                if (parked < parkedBefore + polls) {
                    throw new IllegalStateException("only " + (long) (parked - parkedBefore) + " of " + polls + " long-polls parked");
                }
                ServerMetrics.Timer lastWrite = server.timer(LAST_WRITE);
                ServerMetrics.Timer queued = server.timer(QUEUED);
                long start = System.nanoTime();
                cursor = publish(topic, r);
                round.await(Math.min(deadlineNanos, start + ROUND_LIMIT.toNanos()));
                long last = round.lastAnsweredNanos() - start;
                // The client keeps only the last answer's time: the median is not measured for the polls.
                Round figure = round(r, r < warmUp, lastWrite, queued, new long[0], polls, deadlineNanos);
                figures.add(new Round(figure.round(), figure.warmUp(), figure.serverLastWriteMs(), figure.serverQueuedMs(), last / 1e6, Double.NaN,
                        round.withEvent(), polls));
                if (round.other() > 0) {
                    throw new IllegalStateException(round.other() + " long-polls not answered with the event in round " + r + ": " + round.lastProblem());
                }
            }
        }
        return figures;
    }

    private Round round(int r, boolean warmUp, ServerMetrics.Timer lastWrite, ServerMetrics.Timer queued, long[] times, int expected,
                        long deadlineNanos) throws InterruptedException {
        long until = Math.min(deadlineNanos, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
        ServerMetrics.Timer lastWriteAfter = server.timer(LAST_WRITE);
        while (lastWriteAfter.count() == lastWrite.count() && System.nanoTime() < until) {
            Thread.sleep(10);
            lastWriteAfter = server.timer(LAST_WRITE);
        }
        ServerMetrics.Timer queuedAfter = server.timer(QUEUED);
        double serverMs = lastWriteAfter.count() == lastWrite.count() + 1 ? (lastWriteAfter.sumSeconds() - lastWrite.sumSeconds()) * 1000 : Double.NaN;
        double queuedMs = queuedAfter.count() == queued.count() + 1 ? (queuedAfter.sumSeconds() - queued.sumSeconds()) * 1000 : Double.NaN;
        Arrays.sort(times);
        double lastMs = times.length == 0 ? Double.NaN : times[times.length - 1] / 1e6;
        double medianMs = times.length == 0 ? Double.NaN : times[times.length / 2] / 1e6;
        return new Round(r + 1, warmUp, serverMs, queuedMs, lastMs, medianMs, times.length, expected);
    }

    /** Publishes {@code {"round":r}} to {@code topic}; the event's id. */
    private long publish(String topic, int r) throws InterruptedException {
        SimpleHttp.Answer answer = publisher.postJson(app.resolve("/events?topic=" + topic), "{\"round\":" + r + "}", Duration.ofSeconds(10));
        if (answer.status() != 200) {
            throw new IllegalStateException("publish to " + topic + " failed: " + (answer.status() == 0 ? answer.failure() : answer.status() + " " + answer.body()));
        }
        try {
            return JSON.readTree(answer.body()).path("id").asLong();
        } catch (IOException e) {
            throw new IllegalStateException("publish answer not JSON: " + answer.body(), e);
        }
    }

    private static int roundOf(String data) {
        try {
            return JSON.readTree(data).path("data").path("round").asInt(-2);
        } catch (IOException e) {
            return -2;
        }
    }

    void close() {
        publisher.close();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    /**
     * When each client received the current round's event. Thread-safety: the scenario's thread starts a round; the
     * clients' threads record into an atomic array and count down the round's latch.
     */
    private static final class Receipts {
        private final AtomicReference<CountDownLatch> latch = new AtomicReference<>(new CountDownLatch(0));
        private final AtomicInteger currentRound = new AtomicInteger(-1);
        private final AtomicLongArray receivedAt;

        Receipts(int clients) {
            receivedAt = new AtomicLongArray(clients);
        }

        int clients() {
            return receivedAt.length();
        }

        /** Forgets the last round's receipts and starts round {@code r}; its latch counts every client's receipt. */
        CountDownLatch startRound(int r) {
            for (int i = 0; i < receivedAt.length(); i++) {
                receivedAt.set(i, 0);
            }
            CountDownLatch all = new CountDownLatch(receivedAt.length());
            latch.set(all);
            currentRound.set(r);
            return all;
        }

        /** Client {@code client} received round {@code round}'s event at {@code atNanos}; other rounds' are ignored. */
        void received(int client, int round, long atNanos) {
            if (round == currentRound.get()) {
                receivedAt.set(client, atNanos);
                latch.get().countDown();
            }
        }

        /** The receipts of this round, as times since {@code startNanos}. */
        long[] times(long startNanos) {
            long[] times = new long[receivedAt.length()];
            int received = 0;
            for (int i = 0; i < receivedAt.length(); i++) {
                long at = receivedAt.get(i);
                if (at != 0) {
                    times[received++] = at - startNanos;
                }
            }
            return Arrays.copyOf(times, received);
        }
    }
}
