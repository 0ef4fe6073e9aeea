package com.example.threading.load.scenario.sse;

import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.jvm.ForcedGc;
import com.example.threading.load.engine.jvm.ServerMetrics;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.Target;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Server-Sent Events beside the long-poll, on one service the tool starts: (1) one event to N streams against N parked
 * long-polls, both over h2c, round by round (the server's batch time and the client's publish → last receipt); (2) the
 * server's heap per idle stream after forced full GCs, over h2c and HTTP/1.1; (3) chat rooms over streams with every
 * delivery checked for loss, duplicates and order, then the same with one reader that never reads, which the server must
 * shed while the others' p99 holds; (4, part {@code ws}, not run by default) WebSockets (HTTP/1.1 or h2c) beside both:
 * one event to N sockets against N streams and N parked long-polls in the same run, and the server's heap per idle
 * socket beside an idle stream's and a parked long-poll's. Readers are OkHttp's EventSource ({@link SseReaders}) and
 * Jetty's WebSocket client ({@link SocketReaders}); {@link SseView} reports.
 */
@Command(name = "sse",
        description = "Server-Sent Events beside the long-poll on one service: one event to N streams vs N parked long-polls (h2c), "
                + "server heap per idle stream (h2c, HTTP/1.1), and chat rooms over streams with loss/duplicate/order checks, "
                + "then with one stalled reader that must be shed; with --parts ws, WebSockets beside both (batch and heap).")
public final class SseScenario extends ScenarioCommand {

    static final List<String> PARTS = List.of("batch", "heap", "rooms", "ws");

    @Option(names = "--streams", defaultValue = "20000", description = "Streams, and parked long-polls, over h2c in the batch and heap parts (default: ${DEFAULT-VALUE})")
    int streams;

    @Option(names = "--http1-streams", defaultValue = "5000", description = "Streams over HTTP/1.1 in the heap part, a connection each (default: ${DEFAULT-VALUE})")
    int http1Streams;

    @Option(names = "--sockets", defaultValue = "5000", description = "WebSockets, and as many streams (h2c) and parked long-polls (h2c), "
            + "in the ws part; a socket is a connection of its own, a file in this process and in the service's (default: ${DEFAULT-VALUE})")
    int sockets;

    @Option(names = "--socket-protocol", defaultValue = "http1", description = "What the ws part's sockets run over: http1 (a "
            + "connection each) or h2c (RFC 8441: a stream each, many to a connection, so that more sockets fit under the open-file "
            + "limit) (default: ${DEFAULT-VALUE})")
    String socketProtocol;

    @Option(names = "--rounds", defaultValue = "5", description = "Measured rounds (one event each) per transport (default: ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--warmup-rounds", defaultValue = "1", description = "Rounds before them, not counted (default: ${DEFAULT-VALUE})")
    int warmupRounds;

    @Option(names = "--rooms", defaultValue = "100", description = "Rooms (one topic each) in the rooms part (default: ${DEFAULT-VALUE})")
    int rooms;

    @Option(names = "--readers-per-room", defaultValue = "10", description = "Streams per room (default: ${DEFAULT-VALUE})")
    int readersPerRoom;

    @Option(names = "--rate", defaultValue = "783", description = "Messages per second, round-robin over the rooms (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--duration", defaultValue = "30s", description = "Publishing time of each rooms run (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--rooms-warmup", defaultValue = "10s", description = "A rooms run before the measured two, not counted: the fresh "
            + "service and the tool compile their hot code meanwhile (0s: none) (default: ${DEFAULT-VALUE})")
    Duration roomsWarmup;

    @Option(names = "--message-bytes", defaultValue = "50", description = "Size of each room message's JSON (default: ${DEFAULT-VALUE})")
    int messageBytes;

    @Option(names = "--ballast-bytes", defaultValue = "60000", description = "Size of each event on the ballast topic, which only the slow "
            + "reader reads, published in both rooms runs (default: ${DEFAULT-VALUE})")
    int ballastBytes;

    @Option(names = "--ballast-rate", defaultValue = "20", description = "Ballast events per second (default: ${DEFAULT-VALUE})")
    double ballastRate;

    @Option(names = "--drain-timeout", defaultValue = "10s", description = "The service's sse.drainTimeout: a stream whose socket took "
            + "nothing for this long with bytes unsent is shed (default: ${DEFAULT-VALUE}, the service's own)")
    Duration drainTimeout;

    @Option(names = "--parts", split = ",", defaultValue = "batch,heap,rooms", description = "Parts to run (default: ${DEFAULT-VALUE})")
    List<String> parts;

    /** A run with this scenario's defaults, filled in by picocli. */
    public SseScenario() {
        super(Duration.ofMinutes(20));
    }

    @Override
    protected void run(Report report) throws Exception {
        validate();
        int readers = rooms * readersPerRoom;
        int most = Math.max(Math.max(Math.max(streams, http1Streams), readers + 1), parts.contains("ws") ? sockets : 0);
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("LOG_LEVEL", "WARN");
        environment.put("EVENTS_TICK_PERIOD", "0");
        environment.put("EVENTS_SSE_MAX_STREAMS", Integer.toString(most + 100));
        environment.put("EVENTS_MAX_PARKED", Integer.toString(most + 100));
        environment.put("EVENTS_MAX_TIMEOUT", "300s");
        // Heartbeats of thousands of streams in step would land in the rounds and the heap readings: one per 5 minutes, under
        // an application idle timeout of 10 minutes (below).
        environment.put("EVENTS_SSE_HEARTBEAT", "5m");
        environment.put("EVENTS_SSE_DRAIN_TIMEOUT", Durations.format(drainTimeout));
        environment.put("EVENTS_WS_MAX_SOCKETS", Integer.toString(most + 100));
        environment.put("EVENTS_WS_HEARTBEAT", "5m");
        environment.put("EVENTS_MAX_EVENT_SIZE", "64KiB");
        List<String> properties = List.of("-Ddw.server.applicationConnectors[0].type=h2c",
                "-Ddw.server.applicationConnectors[0].idleTimeout=10m");
        report.configure("streams (h2c)", streams).configure("streams (HTTP/1.1, heap)", http1Streams).configure("rounds", rounds)
                .configure("warm-up rounds", warmupRounds).configure("rooms", rooms).configure("readers per room", readersPerRoom)
                .configure("room messages /s", rate).configure("rooms run", duration).configure("rooms warm-up", roomsWarmup).configure("message bytes", messageBytes)
                .configure("ballast", ballastBytes + " B × " + Report.num(ballastRate) + "/s on " + RoomTraffic.BALLAST_TOPIC)
                .configure("sse.drainTimeout", drainTimeout).configure("sse.maxUnsentBytes", "64KiB (the service's default)")
                .configure("parts", String.join(",", parts)).configure("sockets", sockets + " over " + socketProtocol().label());
        report.environment("stream readers", "OkHttp " + okhttp3.OkHttp.VERSION + " EventSource (okhttp-sse), reader bodies on "
                + SseReaders.threadKind());
        report.environment("long-poll client", "Jetty HttpClient (HTTP/2 prior knowledge)");
        List<String> summary = new ArrayList<>();
        summary.add("Server-Sent Events (GET /events/stream) beside the long-poll (GET /events) on one service with the ticker off.");
        if (parts.contains("batch")) {
            summary.add("Batch: " + streams + " streams of one topic, then " + streams + " parked long-polls of another, both over h2c; "
                    + "each round publishes one event: the server's events.event-to-last-write for that batch (for a stream it ends "
                    + "when the event's frame is handed to the socket's non-blocking write; for a poll when the answer is complete) "
                    + "and the client's time from just before the publish to the last stream or poll holding the event. Goal: SSE "
                    + "≤ 1× the long-poll.");
        }
        if (parts.contains("heap")) {
            summary.add("Heap: the server's heap after a forced full GC with the streams open and idle, minus with none, per stream "
                    + "(goals: ≤ 3 KiB over h2c, ≤ 8 KiB over HTTP/1.1).");
        }
        if (parts.contains("rooms")) {
            summary.add("Rooms: " + readers + " streams, " + readersPerRoom + " in each of " + rooms + " rooms, " + Report.num(rate)
                    + " messages/s; every delivery checked for loss, duplicates and order; then the same with one reader that never "
                    + "reads, which must be shed while the others' p99 stays within 1.2× (goal).");
        }
        if (parts.contains("ws")) {
            summary.add("WebSocket (GET /events/ws): " + sockets + " sockets of one topic (" + (socketProtocol() == Protocol.H2C
                    ? "h2c, RFC 8441: a stream each" : "HTTP/1.1, a connection each") + "), then as many "
                    + "streams and parked long-polls (h2c), the same rounds and figures; goal: sockets and streams ≤ 1× the "
                    + "long-poll. Then the server's heap per idle socket beside an idle stream's and a parked long-poll's.");
        }
        report.summary(String.join(" ", summary));
        if (target().runningService().isPresent()) {
            throw new IllegalArgumentException("sse starts its own service (it sets the stream limits and the idle timeout); --url is not supported");
        }
        try (Target service = open(report, environment, properties)) {
            URI app = service.applicationUri();
            URI admin = service.adminUri().orElseThrow();
            List<BatchRounds.Round> sseRounds = List.of();
            List<BatchRounds.Round> pollRounds = List.of();
            List<SseView.Heap> heaps = new ArrayList<>();
            List<SseView.Rooms> roomRuns = new ArrayList<>();
            SseView.Sockets socketRuns = null;
            try (ServerMetrics server = new ServerMetrics(admin)) {
                if (parts.contains("batch")) {
                    BatchRounds batch = new BatchRounds(app, server);
                    try {
                        sseRounds = batch.sse("batch-sse", streams, warmupRounds, rounds, deadline().within(Duration.ofMinutes(8)));
                        pollRounds = batch.longPoll("batch-poll", streams, warmupRounds, rounds, deadline().within(Duration.ofMinutes(8)));
                    } finally {
                        batch.close();
                    }
                }
                if (parts.contains("heap")) {
                    heaps.add(heap(admin, app, server, Protocol.H2C, streams));
                    heaps.add(heap(admin, app, server, Protocol.HTTP1, http1Streams));
                }
                if (parts.contains("ws")) {
                    socketRuns = sockets(app, admin, server);
                }
                if (parts.contains("rooms")) {
                    long[] cursors = new long[rooms];
                    if (!roomsWarmup.isZero()) {
                        RoomTraffic.Result warm = new RoomTraffic(new RoomTraffic.Plan(app, rooms, readersPerRoom, rate, roomsWarmup, messageBytes,
                                ballastBytes, ballastRate, false, cursors)).run(server, deadline().within(roomsWarmup.plusMinutes(4)));
                        cursors = warm.newest();
                        report.note("Rooms: a warm-up run of " + Durations.format(roomsWarmup) + " on the same rooms before the measured ones, not "
                                + "counted: " + warm.checks().deliveries() + " of " + warm.checks().expected() + " deliveries, p99 "
                                + Report.ms(warm.latencyMicros().getValueAtPercentile(99) / 1000.0) + " ms.");
                    }
                    for (boolean slow : new boolean[] {false, true}) {
                        RoomTraffic.Result result = new RoomTraffic(new RoomTraffic.Plan(app, rooms, readersPerRoom, rate, duration, messageBytes,
                                ballastBytes, ballastRate, slow, cursors)).run(server, deadline().within(duration.plusMinutes(4)));
                        roomRuns.add(new SseView.Rooms(slow ? "with one stalled reader" : "all readers read", readers, result));
                        cursors = result.newest();
                    }
                }
            }
            SseView.present(report, streams, sseRounds, pollRounds, heaps, roomRuns, drainTimeout, socketRuns);
        }
    }

    /**
     * The ws part: one event to N sockets, N streams and N parked long-polls in turn, then the heap per idle socket, idle
     * stream and parked long-poll.
     */
    private SseView.Sockets sockets(URI app, URI admin, ServerMetrics server) throws Exception {
        BatchRounds batch = new BatchRounds(app, server);
        List<BatchRounds.Round> ws;
        List<BatchRounds.Round> sse;
        List<BatchRounds.Round> poll;
        try {
            ws = batch.websocket("ws-socket", socketProtocol(), sockets, warmupRounds, rounds, deadline().within(Duration.ofMinutes(8)));
            sse = batch.sse("ws-sse", sockets, warmupRounds, rounds, deadline().within(Duration.ofMinutes(8)));
            poll = batch.longPoll("ws-poll", sockets, warmupRounds, rounds, deadline().within(Duration.ofMinutes(8)));
        } finally {
            batch.close();
        }
        return new SseView.Sockets(sockets, socketProtocol(), ws, sse, poll, List.of(socketHeap(admin, app, server, sockets),
                heap(admin, app, server, Protocol.H2C, sockets).beside("SSE stream (h2c)"), pollHeap(admin, app, server, sockets)));
    }

    /** The server's heap per parked long-poll (h2c): forced full GCs with none parked, then with {@code count} parked. */
    private SseView.Heap pollHeap(URI admin, URI app, ServerMetrics server, int count) throws Exception {
        server.awaitValue("events.parked", value -> value == 0, deadline().within(Duration.ofSeconds(30)));
        double none = liveHeapMb(admin);
        double open;
        try (ParkedPolls polls = new ParkedPolls(count, TimeUnit.MINUTES.toMillis(10))) {
            polls.send(app, "heap-poll", 0, count, 300);
            double parked = server.awaitValue("events.parked", value -> value >= count, deadline().within(Duration.ofMinutes(3)));
            if (parked < count) {
                throw new IllegalStateException("only " + (long) parked + " of " + count + " long-polls parked");
            }
            open = liveHeapMb(admin);
        }
        return new SseView.Heap("long-poll, parked (h2c)", count, none, open, Double.NaN);
    }

    /** The server's heap per idle socket: forced full GCs with none open, then with {@code count} open. */
    private SseView.Heap socketHeap(URI admin, URI app, ServerMetrics server, int count) throws Exception {
        server.awaitValue("events.websocket.open", value -> value == 0, deadline().within(Duration.ofSeconds(30)));
        double none = liveHeapMb(admin);
        double open;
        try (SocketReaders readers = new SocketReaders(socketProtocol(), count)) {
            List<URI> urls = new ArrayList<>(count);
            URI base = URI.create("ws://" + app.getAuthority());
            for (int i = 0; i < count; i++) {
                urls.add(base.resolve("/events/ws?topic=heap-ws"));
            }
            int opened = readers.open(urls, (socket, text, at) -> { }, deadline().within(Duration.ofMinutes(3)));
            if (opened < count) {
                throw new IllegalStateException("only " + opened + " of " + count + " sockets opened: " + readers.lastFailure());
            }
            server.awaitValue("events.websocket.open", value -> value >= count, deadline().within(Duration.ofSeconds(30)));
            open = liveHeapMb(admin);
        }
        return new SseView.Heap("WebSocket (" + socketProtocol().label() + ")", count, none, open, Double.NaN);
    }

    /** The server's heap per idle stream over {@code protocol}: forced full GCs with none open, then with {@code count} open. */
    private SseView.Heap heap(URI admin, URI app, ServerMetrics server, Protocol protocol, int count) throws Exception {
        server.awaitValue("events.sse.open", value -> value == 0, deadline().within(Duration.ofSeconds(30)));
        double none = liveHeapMb(admin);
        double open;
        try (SseReaders readers = new SseReaders(protocol, count)) {
            List<URI> urls = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                urls.add(app.resolve("/events/stream?topic=heap-" + (protocol == Protocol.H2C ? "h2c" : "http1")));
            }
            int opened = readers.open(urls, 0, (reader, id, type, data, at) -> { }, deadline().within(Duration.ofMinutes(3)));
            if (opened < count) {
                throw new IllegalStateException("only " + opened + " of " + count + " streams opened over " + protocol.label() + ": " + readers.lastFailure());
            }
            server.awaitValue("events.sse.open", value -> value >= count, deadline().within(Duration.ofSeconds(30)));
            open = liveHeapMb(admin);
        }
        return SseView.Heap.ofStreams(protocol, count, none, open);
    }

    /** The lower of two heap readings, each right after a forced full GC (MiB). */
    private static double liveHeapMb(URI admin) throws InterruptedException {
        double lowest = Double.NaN;
        for (int i = 0; i < 2; i++) {
            ForcedGc.Reading reading = ForcedGc.once(admin);
            if (!reading.ok()) {
                throw new IllegalStateException("forced GC: " + reading.failure());
            }
            lowest = Double.isNaN(lowest) ? reading.heapUsedMb() : Math.min(lowest, reading.heapUsedMb());
        }
        return lowest;
    }

    /** The ws part's protocol, from {@code --socket-protocol}. */
    private Protocol socketProtocol() {
        return switch (socketProtocol) {
            case "http1" -> Protocol.HTTP1;
            case "h2c" -> Protocol.H2C;
            default -> throw new IllegalArgumentException("--socket-protocol takes http1 or h2c, not " + socketProtocol);
        };
    }

    private void validate() throws IOException {
        socketProtocol();
        for (String part : parts) {
            if (!PARTS.contains(part)) {
                throw new IllegalArgumentException("--parts takes " + PARTS + ", not " + part);
            }
        }
        if (streams < 1 || http1Streams < 1 || sockets < 1 || rounds < 1 || warmupRounds < 0 || rooms < 1 || readersPerRoom < 1 || !(rate > 0)
                || duration.compareTo(Duration.ofSeconds(1)) < 0 || roomsWarmup.isNegative() || ballastRate < 0 || ballastBytes < 100) {
            throw new IllegalArgumentException("--streams, --http1-streams, --sockets, --rounds, --rooms, --readers-per-room at least 1, --rate above 0, "
                    + "--duration at least 1s, --ballast-bytes at least 100");
        }
        int threads = Math.max(Math.max(parts.contains("rooms") ? rooms * readersPerRoom : 0, parts.contains("ws") ? sockets : 0),
                Math.max(parts.contains("batch") || parts.contains("heap") ? streams : 0, parts.contains("heap") ? http1Streams : 0));
        if (!SseReaders.virtualThreads() && threads > SseReaders.PLATFORM_THREAD_LIMIT) {
            throw new IllegalArgumentException("OkHttp reads each stream on a thread of its own, and on JDK " + Runtime.version().feature()
                    + " those are platform threads: " + threads + " streams would need " + threads + " threads (at most "
                    + SseReaders.PLATFORM_THREAD_LIMIT + " here; pid_max counts every thread of the machine). Run the tool on JDK 24+, "
                    + "where they are virtual threads (e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar load/target/threading-load.jar sse, "
                    + "with --java for the service's JDK), or give fewer --streams.");
        }
        long files = openFileLimit();
        int connections = Math.max(parts.contains("heap") ? http1Streams : 0,
                parts.contains("ws") && socketProtocol() == Protocol.HTTP1 ? sockets : 0);
        if (files > 0 && connections + 1_000 > files) {
            throw new IllegalArgumentException("--http1-streams and --sockets over http1 need a connection each (" + connections + "), and this "
                    + "process may open " + files + " files (ulimit -n): give fewer, raise the limit (ulimit -n, or as root prlimit "
                    + "--nofile=N:N), or run the sockets over h2c (--socket-protocol h2c)");
        }
    }

    /** The soft limit on open files of this process (/proc/self/limits); 0 when unknown. */
    private static long openFileLimit() throws IOException {
        Path limits = Path.of("/proc/self/limits");
        if (!Files.isReadable(limits)) {
            return 0;
        }
        for (String line : Files.readAllLines(limits)) {
            if (line.startsWith("Max open files")) {
                String[] fields = line.substring("Max open files".length()).trim().split("\\s+");
                return fields[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(fields[0]);
            }
        }
        return 0;
    }

    static long seconds(Duration duration) {
        return TimeUnit.NANOSECONDS.toSeconds(duration.toNanos());
    }
}
