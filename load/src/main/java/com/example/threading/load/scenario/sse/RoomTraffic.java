package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.jvm.ServerMetrics;
import com.example.threading.load.engine.traffic.DaemonThreads;
import com.example.threading.load.engine.traffic.DeliveryLedger;
import com.example.threading.load.engine.traffic.TopicsTraffic;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Chat rooms on Server-Sent Events: {@code rooms × readersPerRoom} streams over h2c, reader {@code r} in room
 * {@code r % rooms} ({@code GET /events/stream?topic=room-K:<cursor>}), while messages are published at a fixed rate
 * round-robin over the rooms for a duration; each reader's {@link DeliveryLedger} checks loss, duplicates and order, and
 * each first receipt's latency is from the publish's intended send time (open model). Beside it a ballast topic gets
 * large events at a low rate; with {@code slowReader}, one more stream on a raw socket that never reads (4 KiB receive
 * buffer) asks for room 0 and the ballast: on loopback the kernel takes some megabytes before the server sees the stall,
 * and the ballast fills them within seconds, so the server's shedding (byte budget, drain deadline) is reached in the run.
 *
 * <p>Thread-safety: {@link #run} is called on the scenario's thread. Each ledger is written by its stream's reader thread
 * under the ledger's lock and read under it after the run; the publisher and ballast run on their own scheduler threads;
 * the rest is atomics and concurrent collections.
 */
final class RoomTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PUBLISH_TIMEOUT = Duration.ofSeconds(10);
    /** How long readers get, after the last publish was answered, to catch up. */
    private static final Duration DRAIN = Duration.ofSeconds(10);
    static final String BALLAST_TOPIC = "sse-ballast";

    /** What to run. {@code cursors[k]}: room k's newest id before this run (its readers start after it). */
    record Plan(URI app, int rooms, int readersPerRoom, double rate, Duration duration, int messageBytes, int ballastBytes,
                double ballastRate, boolean slowReader, long[] cursors) {
    }

    /** What a run measured. {@code shedAfterSeconds}: from the slow reader's request to the server's shed count moving (NaN: not shed). */
    record Result(RoomChecks checks, long published, long publishFailures, double publishingSeconds, Histogram latencyMicros,
                  double maxPublishLagMs, int readersOpen, int readerFailures, long[] newest, double shedAfterSeconds, long shedCount,
                  long ballastPublished, long ballastBytesPublished) {

        double deliveriesPerSecond() {
            return checks.deliveries() / publishingSeconds;
        }
    }

    private final Plan plan;

    RoomTraffic(Plan plan) {
        this.plan = plan;
    }

    Result run(ServerMetrics server, long deadlineNanos) throws Exception {
        int readers = plan.rooms() * plan.readersPerRoom();
        int[] roomOf = new int[readers];
        List<DeliveryLedger> ledgers = new ArrayList<>(readers);
        List<URI> urls = new ArrayList<>(readers);
        for (int r = 0; r < readers; r++) {
            roomOf[r] = r % plan.rooms();
            ledgers.add(new DeliveryLedger(plan.cursors()[roomOf[r]]));
            urls.add(plan.app().resolve("/events/stream?topic=room-" + roomOf[r] + ":" + plan.cursors()[roomOf[r]]));
        }
        ConcurrentHistogram latency = new ConcurrentHistogram(3_600_000_000L, 3);
        long periodNanos = (long) (1e9 / plan.rate());
        AtomicLong start = new AtomicLong(Long.MAX_VALUE);
        SseReaders.Listener listener = (reader, id, type, data, at) -> {
            if (type != null && !type.equals("message")) {
                return;
            }
            JsonNode event;
            try {
                event = JSON.readTree(data);
            } catch (IOException e) {
                return;
            }
            DeliveryLedger ledger = ledgers.get(reader);
            boolean first;
            synchronized (ledger) {
                first = ledger.receive(event.path("id").asLong(), at);
            }
            long n = event.path("data").path("n").asLong(-1);
            if (first && n >= 0) {
                latency.recordValue(Math.max(0, (at - (start.get() + n * periodNanos)) / 1_000));
            }
        };
        ExecutorService httpThreads = Executors.newFixedThreadPool(2, DaemonThreads.named("sse-rooms-http"));
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(5)).build();
        ScheduledExecutorService publishers = Executors.newScheduledThreadPool(2, DaemonThreads.named("sse-rooms-publisher"));
        Socket slow = null;
        try (SseReaders streams = new SseReaders(Protocol.H2C, readers)) {
            int open = streams.open(urls, 0, listener, Math.min(deadlineNanos, System.nanoTime() + TimeUnit.SECONDS.toNanos(120)));
            if (open < readers) {
                throw new IllegalStateException("only " + open + " of " + readers + " room streams opened: " + streams.lastFailure());
            }
            server.awaitValue("events.sse.open", value -> value >= readers, System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
            long shedBefore = (long) server.value("events.sse.shed");
            long slowOpenedAt = 0;
            if (plan.slowReader()) {
                slow = new Socket();
                slow.setReceiveBufferSize(4096);
                slow.connect(new InetSocketAddress(plan.app().getHost(), plan.app().getPort()), 5_000);
                OutputStream out = slow.getOutputStream();
                // Only the request head: the slow reader never reads its answer (the point of it).
                out.write(("GET /events/stream?topic=room-0:" + plan.cursors()[0] + "&topic=" + BALLAST_TOPIC + " HTTP/1.1\r\nHost: "
                        + plan.app().getHost() + ":" + plan.app().getPort() + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                slowOpenedAt = System.nanoTime();
                server.awaitValue("events.sse.open", value -> value >= readers + 1, System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
            }

            List<Set<Long>> published = new ArrayList<>();
            for (int k = 0; k < plan.rooms(); k++) {
                published.add(ConcurrentHashMap.newKeySet());
            }
            AtomicLongArray newest = new AtomicLongArray(plan.cursors().clone());
            AtomicLong failures = new AtomicLong();
            AtomicLong maxLag = new AtomicLong();
            AtomicLong sequence = new AtomicLong();
            AtomicLong ballast = new AtomicLong();
            Queue<CompletableFuture<Void>> answers = new ConcurrentLinkedQueue<>();
            String pad = "x".repeat(Math.max(0, plan.ballastBytes() - 20));
            long begin = System.nanoTime();
            start.set(begin);
            publishers.scheduleAtFixedRate(() -> {
                long n = sequence.getAndIncrement();
                long intended = begin + n * periodNanos;
                maxLag.accumulateAndGet(System.nanoTime() - intended, Math::max);
                int room = (int) (n % plan.rooms());
                HttpRequest post = HttpRequest.newBuilder(plan.app().resolve("/events?topic=room-" + room)).timeout(PUBLISH_TIMEOUT)
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(TopicsTraffic.message(n, plan.messageBytes()))).build();
                answers.add(http.sendAsync(post, HttpResponse.BodyHandlers.ofString()).handle((response, failure) -> {
                    long id = failure == null && response.statusCode() == 200 ? TopicsTraffic.idOf(response.body()) : -1;
                    if (id > 0) {
                        published.get(room).add(id);
                        newest.accumulateAndGet(room, id, Math::max);
                    } else {
                        failures.incrementAndGet();
                    }
                    return null;
                }));
            }, 0, periodNanos, TimeUnit.NANOSECONDS);
            if (plan.ballastRate() > 0) {
                publishers.scheduleAtFixedRate(() -> {
                    long n = ballast.incrementAndGet();
                    HttpRequest post = HttpRequest.newBuilder(plan.app().resolve("/events?topic=" + BALLAST_TOPIC)).timeout(PUBLISH_TIMEOUT)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"b\":" + n + ",\"p\":\"" + pad + "\"}")).build();
                    answers.add(http.sendAsync(post, HttpResponse.BodyHandlers.discarding()).handle((response, failure) -> null));
                }, periodNanos / 2, (long) (1e9 / plan.ballastRate()), TimeUnit.NANOSECONDS);
            }
            double shedAfter = Double.NaN;
            long publishEnd = begin + plan.duration().toNanos();
            while (System.nanoTime() < publishEnd) {
                Thread.sleep(100);
                if (plan.slowReader() && Double.isNaN(shedAfter) && server.value("events.sse.shed") > shedBefore) {
                    shedAfter = (System.nanoTime() - slowOpenedAt) / 1e9;
                }
            }
            publishers.shutdown();
            if (!publishers.awaitTermination(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the publishers did not stop within 10 s: the tool is stuck");
            }
            double publishingSeconds = (System.nanoTime() - begin) / 1e9;
            CompletableFuture.allOf(answers.toArray(CompletableFuture<?>[]::new)).get(PUBLISH_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
            long drainEnd = Math.min(deadlineNanos, System.nanoTime() + DRAIN.toNanos());
            while (!caughtUp(ledgers, roomOf, newest) && System.nanoTime() < drainEnd) {
                Thread.sleep(20);
            }
            if (plan.slowReader() && Double.isNaN(shedAfter) && server.value("events.sse.shed") > shedBefore) {
                shedAfter = (System.nanoTime() - slowOpenedAt) / 1e9;
            }
            long shedCount = (long) server.value("events.sse.shed") - shedBefore;
            int readerFailures = streams.failed();
            RoomChecks checks = RoomChecks.of(ledgers, roomOf, published);
            long[] newestIds = new long[plan.rooms()];
            for (int k = 0; k < newestIds.length; k++) {
                newestIds[k] = newest.get(k);
            }
            long publishedCount = published.stream().mapToLong(Set::size).sum();
            Histogram snapshot = latency.copy();
            return new Result(checks, publishedCount, failures.get(), publishingSeconds, snapshot, maxLag.get() / 1e6, open, readerFailures,
                    newestIds, shedAfter, shedCount, ballast.get(), ballast.get() * plan.ballastBytes());
        } finally {
            publishers.shutdownNow();
            httpThreads.shutdownNow();
            if (slow != null) {
                slow.close();
            }
        }
    }

    private static boolean caughtUp(List<DeliveryLedger> ledgers, int[] roomOf, AtomicLongArray newest) {
        for (int r = 0; r < ledgers.size(); r++) {
            DeliveryLedger ledger = ledgers.get(r);
            synchronized (ledger) {
                if (ledger.lastReceived() < newest.get(roomOf[r])) {
                    return false;
                }
            }
        }
        return true;
    }
}
