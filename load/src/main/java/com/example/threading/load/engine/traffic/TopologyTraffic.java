package com.example.threading.load.engine.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * The traffic a deployment carries while faults hit it, sent to its entry points (the balancer, or the instances
 * directly for comparison), as its clients would behave:
 * <ul>
 *   <li>a publisher POSTs {@code {"seq":n}} at a fixed rate (open model), with the bearer token (also on every poll); a refused or failed
 *   publish is retried after its {@code Retry-After} (else 500 ms) until it is accepted or too old;</li>
 *   <li>followers long-poll, each keeping its cursor ({@code lastId}); a failed poll is repeated with the same cursor
 *   (after {@code Retry-After}, else 200 ms); each follower's {@link DeliveryLedger} counts lost, duplicated and
 *   out-of-order events;</li>
 *   <li>{@code GET /work/cached?ms=20} at a fixed rate, each outcome counted.</li>
 * </ul>
 * Delivery latency runs from the intended send time of a publish's first attempt to each follower's receipt (retries
 * included: what a follower waits for). Errors are counted by kind ("503 + Retry-After", "status 502", "connection
 * refused", ...). A publish whose answer was lost and that was retried may become two events: counted as republished.
 *
 * <p>Thread-safety: {@link #start} and {@link Running#finish} are called on the scenario's thread. Followers run on
 * their own threads; the publisher and the /work requests on two schedulers and the HTTP client's threads; they share
 * only concurrent maps and atomics. Each ledger is written by its follower alone and read after the join in
 * {@code finish}.
 */
public final class TopologyTraffic {

    /** Where the traffic goes and how much of it. */
    public record Plan(List<URI> entries, Optional<String> token, int followers, double publishesPerSecond,
                       double workPerSecond, int pollTimeoutSeconds) {
    }

    /** What a run measured. */
    public record Result(long published, long publishAttempts, long publishRetries, long publishesAbandoned,
                         Map<String, Long> publishRefusals, List<DeliveryLedger> followers, long lost, long duplicated,
                         long outOfOrder, long worstFollower, long republished, Map<String, Long> pollErrors,
                         Map<String, Long> workOutcomes, Histogram deliveryMicros, double seconds) {
    }

    /** A publish is given up when it could not be placed within this time since its intended send. */
    private static final Duration PUBLISH_GIVE_UP = Duration.ofSeconds(30);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final long MAX_RETRY_AFTER_MS = 5_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private TopologyTraffic() {
    }

    /** Starts the followers, the publisher and the /work requests; {@link Running#finish} ends them. */
    public static Running start(Plan plan) throws IOException, InterruptedException {
        Running running = new Running(plan);
        running.begin();
        return running;
    }

    /** The traffic under way. */
    public static final class Running {

        private final Plan plan;
        private final ExecutorService httpThreads = Executors.newFixedThreadPool(4, DaemonThreads.named("topology-http"));
        private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(2)).build();
        private final ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("topology-publisher"));
        private final ScheduledExecutorService work = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("topology-work"));
        private final Map<Long, Long> intendedById = new ConcurrentHashMap<>();
        private final Map<Long, Long> seqById = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> publishRefusals = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> pollErrors = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> workOutcomes = new ConcurrentHashMap<>();
        private final AtomicLong publishAttempts = new AtomicLong();
        private final AtomicLong publishRetries = new AtomicLong();
        private final AtomicLong abandoned = new AtomicLong();
        private final AtomicInteger publishesInFlight = new AtomicInteger();
        private final AtomicInteger workInFlight = new AtomicInteger();
        private final AtomicLong newestPublished = new AtomicLong();
        private final AtomicLong publishingEndedAt = new AtomicLong(Long.MAX_VALUE);
        private final List<DeliveryLedger> ledgers = new ArrayList<>();
        private final List<Thread> followers = new ArrayList<>();
        private final List<ScheduledFuture<?>> senders = new ArrayList<>();
        private long startedAt;

        private Running(Plan plan) {
            this.plan = plan;
        }

        private void begin() throws IOException, InterruptedException {
            long startId = firstEvent();
            newestPublished.set(startId);
            for (int f = 0; f < plan.followers(); f++) {
                DeliveryLedger ledger = new DeliveryLedger(startId);
                ledgers.add(ledger);
                Thread thread = new Thread(() -> follow(ledger), "topology-follower-" + f);
                thread.setDaemon(true);
                followers.add(thread);
                thread.start();
            }
            startedAt = System.nanoTime();
            long publishPeriod = (long) (1e9 / plan.publishesPerSecond());
            AtomicLong sequence = new AtomicLong();
            senders.add(publisher.scheduleAtFixedRate(() -> {
                long seq = sequence.getAndIncrement();
                publishesInFlight.incrementAndGet();
                attemptPublish(seq, startedAt + seq * publishPeriod);
            }, 0, publishPeriod, TimeUnit.NANOSECONDS));
            if (plan.workPerSecond() > 0) {
                senders.add(work.scheduleAtFixedRate(this::sendWork, 0, (long) (1e9 / plan.workPerSecond()), TimeUnit.NANOSECONDS));
            }
        }

        /** Lets the traffic run for {@code duration}, then {@link #finish}es it. */
        public Result sleepAndFinish(Duration duration) throws InterruptedException {
            Thread.sleep(duration.toMillis());
            return finish();
        }

        /**
         * Stops publishing and /work, waits for the publishes still being retried, lets the followers catch up (at most
         * twice the poll timeout plus 5 s) and returns what they saw.
         */
        public Result finish() throws InterruptedException {
            senders.forEach(sender -> sender.cancel(false));
            // The publisher's scheduler keeps running the retries of the publishes still in flight.
            awaitZero(publishesInFlight, PUBLISH_GIVE_UP.plus(REQUEST_TIMEOUT).plusSeconds(5));
            awaitZero(workInFlight, REQUEST_TIMEOUT.plusSeconds(5));
            publisher.shutdownNow();
            work.shutdownNow();
            double seconds = (System.nanoTime() - startedAt) / 1e9;
            publishingEndedAt.set(System.nanoTime());
            long drainMs = TimeUnit.SECONDS.toMillis(2L * plan.pollTimeoutSeconds() + 5);
            for (Thread thread : followers) {
                thread.join(drainMs + REQUEST_TIMEOUT.toMillis() + TimeUnit.SECONDS.toMillis(plan.pollTimeoutSeconds()));
            }
            httpThreads.shutdownNow();

            List<Long> published = new ArrayList<>(intendedById.keySet());
            Histogram latency = new Histogram(3_600_000_000L, 3);
            long lost = 0;
            long duplicated = 0;
            long outOfOrder = 0;
            long worst = 0;
            for (DeliveryLedger ledger : ledgers) {
                for (Long id : published) {
                    long intended = intendedById.get(id);
                    ledger.receivedAt(id).ifPresent(at -> latency.recordValue(Math.max(0, (at - intended) / 1_000)));
                }
                long ledgerLost = ledger.lost(published);
                lost += ledgerLost;
                duplicated += ledger.duplicated();
                outOfOrder += ledger.outOfOrder();
                worst = Math.max(worst, ledgerLost + ledger.duplicated() + ledger.outOfOrder());
            }
            return new Result(published.size(), publishAttempts.get(), publishRetries.get(), abandoned.get(), counts(publishRefusals),
                    List.copyOf(ledgers), lost, duplicated, outOfOrder, worst, republished(), counts(pollErrors), counts(workOutcomes),
                    latency, seconds);
        }

        /** Seqs that became more than one event (a retried publish whose first answer was lost). */
        private long republished() {
            Map<Long, Set<Long>> idsBySeq = new HashMap<>();
            seqById.forEach((id, seq) -> idsBySeq.computeIfAbsent(seq, s -> new HashSet<>()).add(id));
            return idsBySeq.values().stream().filter(ids -> ids.size() > 1).count();
        }

        private long firstEvent() throws IOException, InterruptedException {
            long deadline = System.nanoTime() + PUBLISH_GIVE_UP.toNanos();
            String failure = "";
            while (System.nanoTime() < deadline) {
                try {
                    HttpResponse<String> answer = client.send(publish(entry(), "{\"topology\":\"start\"}"), HttpResponse.BodyHandlers.ofString());
                    Optional<Long> id = answer.statusCode() == 200 ? EventAnswers.idOf(answer.body()) : Optional.empty();
                    if (id.isPresent()) {
                        return id.get();
                    }
                    failure = "status " + answer.statusCode() + ": " + answer.body();
                } catch (IOException e) {
                    failure = e.toString();
                }
                Thread.sleep(500);
            }
            throw new IOException("the first publish was not accepted on " + plan.entries() + " within " + PUBLISH_GIVE_UP.toSeconds() + " s: " + failure);
        }

        private void attemptPublish(long seq, long intendedNanos) {
            publishAttempts.incrementAndGet();
            client.sendAsync(publish(entry(), "{\"seq\":" + seq + "}"), HttpResponse.BodyHandlers.ofString())
                    .whenComplete((answer, failure) -> {
                        Optional<Long> id = failure == null && answer.statusCode() == 200 ? EventAnswers.idOf(answer.body()) : Optional.empty();
                        if (id.isPresent()) {
                            intendedById.put(id.get(), intendedNanos);
                            newestPublished.accumulateAndGet(id.get(), Math::max);
                            publishesInFlight.decrementAndGet();
                            return;
                        }
                        String kind = failure != null ? failureKind(failure) : statusKind(answer);
                        count(publishRefusals, kind);
                        if (System.nanoTime() - intendedNanos > PUBLISH_GIVE_UP.toNanos()) {
                            abandoned.incrementAndGet();
                            publishesInFlight.decrementAndGet();
                            return;
                        }
                        publishRetries.incrementAndGet();
                        long delayMs = failure == null ? retryAfterMs(answer).orElse(500L) : 500L;
                        try {
                            publisher.schedule(() -> attemptPublish(seq, intendedNanos), delayMs, TimeUnit.MILLISECONDS);
                        } catch (RejectedExecutionException finished) {
                            // finish() gave up waiting for this publish: it counts as abandoned.
                            abandoned.incrementAndGet();
                            publishesInFlight.decrementAndGet();
                        }
                    });
        }

        private void sendWork() {
            workInFlight.incrementAndGet();
            HttpRequest request = HttpRequest.newBuilder(entry().resolve("/work/cached?ms=20")).timeout(REQUEST_TIMEOUT).GET().build();
            client.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((answer, failure) -> {
                count(workOutcomes, failure != null ? failureKind(failure) : answer.statusCode() == 200 ? "200" : statusKind(answer));
                workInFlight.decrementAndGet();
            });
        }

        private void follow(DeliveryLedger ledger) {
            long cursor = ledger.lastReceived();
            long drainNanos = TimeUnit.SECONDS.toNanos(2L * plan.pollTimeoutSeconds() + 5);
            while (true) {
                long endedAt = publishingEndedAt.get();
                if (endedAt != Long.MAX_VALUE && (cursor >= newestPublished.get() || System.nanoTime() - endedAt > drainNanos)) {
                    return;
                }
                HttpRequest.Builder builder = HttpRequest.newBuilder(entry().resolve("/events?after=" + cursor + "&timeout=" + plan.pollTimeoutSeconds()))
                        .timeout(REQUEST_TIMEOUT.plusSeconds(plan.pollTimeoutSeconds())).GET();
                plan.token().ifPresent(token -> builder.header("Authorization", "Bearer " + token));
                HttpRequest poll = builder.build();
                long pauseMs = 0;
                try {
                    HttpResponse<String> answer = client.send(poll, HttpResponse.BodyHandlers.ofString());
                    long receivedAt = System.nanoTime();
                    if (answer.statusCode() == 200) {
                        JsonNode body = JSON.readTree(answer.body());
                        for (JsonNode event : body.path("events")) {
                            long id = event.path("id").asLong();
                            ledger.receive(id, receivedAt);
                            JsonNode seq = event.path("data").path("seq");
                            if (seq.isNumber()) {
                                seqById.putIfAbsent(id, seq.asLong());
                            }
                        }
                        cursor = Math.max(cursor, body.path("lastId").asLong(cursor));
                    } else if (answer.statusCode() != 204) {
                        count(pollErrors, statusKind(answer));
                        pauseMs = retryAfterMs(answer).orElse(200L);
                    }
                } catch (IOException failure) {
                    count(pollErrors, failureKind(failure));
                    pauseMs = 200;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (pauseMs > 0) {
                    try {
                        Thread.sleep(pauseMs);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }

        private HttpRequest publish(URI entry, String json) {
            HttpRequest.Builder request = HttpRequest.newBuilder(entry.resolve("/events")).timeout(REQUEST_TIMEOUT)
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
            plan.token().ifPresent(token -> request.header("Authorization", "Bearer " + token));
            return request.build();
        }

        private URI entry() {
            List<URI> entries = plan.entries();
            return entries.get(ThreadLocalRandom.current().nextInt(entries.size()));
        }

        private static void awaitZero(AtomicInteger inFlight, Duration bound) throws InterruptedException {
            long deadline = System.nanoTime() + bound.toNanos();
            while (inFlight.get() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        }
    }

    /** "503 + Retry-After", "503 without Retry-After", or "status N". */
    static String statusKind(HttpResponse<?> answer) {
        if (answer.statusCode() == 503) {
            return answer.headers().firstValue("Retry-After").isPresent() ? "503 + Retry-After" : "503 without Retry-After";
        }
        return "status " + answer.statusCode();
    }

    /** What kind of failure an exchange ended in: "connection refused", "timeout", "connection closed", .... */
    static String failureKind(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return "connect timeout";
        }
        if (cause instanceof HttpTimeoutException) {
            return "timeout";
        }
        for (Throwable c = cause; c != null; c = c.getCause()) {
            if (c instanceof ConnectException) {
                return "connection refused";
            }
        }
        String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
        if (message.contains("reset") || message.contains("closed") || message.contains("eof") || message.contains("no bytes")) {
            return "connection closed";
        }
        return cause.getClass().getSimpleName();
    }

    private static Optional<Long> retryAfterMs(HttpResponse<?> answer) {
        return answer.headers().firstValue("Retry-After").flatMap(value -> {
            try {
                return Optional.of(Math.min(MAX_RETRY_AFTER_MS, Long.parseLong(value.trim()) * 1000));
            } catch (NumberFormatException notSeconds) {
                return Optional.empty();
            }
        });
    }


    private static void count(Map<String, AtomicLong> counts, String kind) {
        counts.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    private static Map<String, Long> counts(Map<String, AtomicLong> counts) {
        Map<String, Long> sorted = new TreeMap<>();
        counts.forEach((kind, count) -> sorted.put(kind, count.get()));
        return sorted;
    }
}
