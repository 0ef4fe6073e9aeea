package com.example.threading.load.engine.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * Publishers and followers on a set of instances that share one event stream: events are POSTed at a fixed rate,
 * each to a random instance; every follower long-polls a random instance per poll, following {@code lastId}, and
 * its {@link DeliveryLedger} checks what it received. Delivery latency is from a publish's intended send time
 * (open model: a late send does not hide its wait) to a follower's receipt, once per follower and event, in
 * microseconds. Optionally one instance is killed half-way ({@code killOne}): it is taken out of the live set and
 * its clients move on to the others.
 *
 * <p>Thread-safety: {@link #run} is called once, on the scenario's thread. Followers run on their own threads, the
 * publisher on a scheduler and the HTTP client's threads; they share only the concurrent collections and atomics;
 * the latency histogram is filled on the scenario's thread after the joins; each ledger is touched by its follower's thread alone until {@link #run} joins them.
 */
public final class ClusterTraffic {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a run measured. */
    public record Result(int instances, long published, long publishFailures, List<DeliveryLedger> followers, long lost,
                         long duplicated, long outOfOrder, long missedAnswers, long failedPolls, Histogram deliveryMicros,
                         double seconds, Optional<URI> killed) {
    }

    private final List<URI> live;
    private final int followers;
    private final double publishPerSecond;
    private final Duration duration;
    private final int pollTimeoutSeconds;

    /** Traffic on {@code instances} (application base URIs): the followers, the publish rate, how long, the poll timeout. */
    public ClusterTraffic(List<URI> instances, int followers, double publishPerSecond, Duration duration, int pollTimeoutSeconds) {
        this.live = new CopyOnWriteArrayList<>(instances);
        this.followers = followers;
        this.publishPerSecond = publishPerSecond;
        this.duration = duration;
        this.pollTimeoutSeconds = pollTimeoutSeconds;
    }

    /**
     * Publishes for the duration while the followers follow, lets them catch up (up to a drain of twice the poll
     * timeout), and returns what they saw. {@code killOne}, when given, is run half-way and names the instance it killed.
     */
    public Result run(Optional<Supplier<URI>> killOne) throws InterruptedException, IOException {
        int instances = live.size();
        ExecutorService httpThreads = Executors.newFixedThreadPool(4, DaemonThreads.named("cluster-http"));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(httpThreads)
                .connectTimeout(Duration.ofSeconds(2)).build();
        long startId = publishOne(client, "start").orElseThrow(() -> new IOException("the first publish failed on " + live));
        Map<Long, Long> publishedAtNanos = new ConcurrentHashMap<>();
        AtomicLong publishFailures = new AtomicLong();
        AtomicLong missedAnswers = new AtomicLong();
        AtomicLong failedPolls = new AtomicLong();
        AtomicLong newestPublished = new AtomicLong(startId);
        Histogram latency = new Histogram(3_600_000_000L, 3);
        List<DeliveryLedger> ledgers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        long drainNanos = TimeUnit.SECONDS.toNanos(2L * pollTimeoutSeconds);
        AtomicLong publishingEndedAt = new AtomicLong(Long.MAX_VALUE);

        for (int f = 0; f < followers; f++) {
            DeliveryLedger ledger = new DeliveryLedger(startId);
            ledgers.add(ledger);
            Thread thread = new Thread(() -> follow(client, ledger, newestPublished, publishingEndedAt, drainNanos,
                    missedAnswers, failedPolls), "cluster-follower-" + f);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }

        ScheduledExecutorService publisher = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("cluster-publisher"));
        long start = System.nanoTime();
        long periodNanos = (long) (1e9 / publishPerSecond);
        AtomicLong sequence = new AtomicLong();
        publisher.scheduleAtFixedRate(() -> {
            long n = sequence.getAndIncrement();
            long intended = start + n * periodNanos;
            URI instance = pick();
            client.sendAsync(post(instance, "{\"seq\":" + n + "}"), HttpResponse.BodyHandlers.ofString())
                    .whenComplete((response, failure) -> {
                        Optional<Long> id = failure == null && response.statusCode() == 200 ? EventAnswers.idOf(response.body()) : Optional.empty();
                        if (id.isPresent()) {
                            publishedAtNanos.put(id.get(), intended);
                            newestPublished.accumulateAndGet(id.get(), Math::max);
                        } else {
                            publishFailures.incrementAndGet();
                        }
                    });
        }, 0, periodNanos, TimeUnit.NANOSECONDS);

        Optional<URI> killed = Optional.empty();
        if (killOne.isPresent()) {
            Thread.sleep(duration.toMillis() / 2);
            URI victim = killOne.get().get();
            live.remove(victim);
            killed = Optional.of(victim);
            Thread.sleep(duration.toMillis() - duration.toMillis() / 2);
        } else {
            Thread.sleep(duration.toMillis());
        }
        publisher.shutdown();
        publisher.awaitTermination(10, TimeUnit.SECONDS);
        Thread.sleep(Math.min(2_000, TimeUnit.NANOSECONDS.toMillis(drainNanos))); // the last publishes' answers
        double seconds = (System.nanoTime() - start) / 1e9;
        publishingEndedAt.set(System.nanoTime());
        for (Thread thread : threads) {
            thread.join(TimeUnit.NANOSECONDS.toMillis(drainNanos) + TimeUnit.SECONDS.toMillis(pollTimeoutSeconds + 5L));
        }
        httpThreads.shutdownNow();

        // Latency once every answer is in: a follower may receive an event before its publisher has the answer.
        List<Long> published = new ArrayList<>(publishedAtNanos.keySet());
        for (DeliveryLedger ledger : ledgers) {
            for (Long id : published) {
                long sentAt = publishedAtNanos.get(id);
                ledger.receivedAt(id).ifPresent(at -> latency.recordValue(Math.max(0, (at - sentAt) / 1_000)));
            }
        }
        long lost = ledgers.stream().mapToLong(ledger -> ledger.lost(published)).sum();
        long duplicated = ledgers.stream().mapToLong(DeliveryLedger::duplicated).sum();
        long outOfOrder = ledgers.stream().mapToLong(DeliveryLedger::outOfOrder).sum();
        return new Result(instances, published.size(), publishFailures.get(), ledgers, lost, duplicated, outOfOrder,
                missedAnswers.get(), failedPolls.get(), latency, seconds, killed);
    }

    private void follow(HttpClient client, DeliveryLedger ledger, AtomicLong newestPublished,
                        AtomicLong publishingEndedAt, long drainNanos, AtomicLong missedAnswers, AtomicLong failedPolls) {
        long cursor = ledger.lastReceived();
        while (true) {
            long endedAt = publishingEndedAt.get();
            if (endedAt != Long.MAX_VALUE && (cursor >= newestPublished.get() || System.nanoTime() - endedAt > drainNanos)) {
                return;
            }
            URI instance = pick();
            HttpRequest poll = HttpRequest.newBuilder(instance.resolve("/events?after=" + cursor + "&timeout=" + pollTimeoutSeconds))
                    .timeout(Duration.ofSeconds(pollTimeoutSeconds + 10L)).GET().build();
            try {
                HttpResponse<String> answer = client.send(poll, HttpResponse.BodyHandlers.ofString());
                long receivedAt = System.nanoTime();
                if (answer.statusCode() != 200) {
                    if (answer.statusCode() != 204) {
                        failedPolls.incrementAndGet();
                    }
                    continue;
                }
                JsonNode body = JSON.readTree(answer.body());
                if (body.path("missed").asBoolean()) {
                    missedAnswers.incrementAndGet();
                }
                for (JsonNode event : body.path("events")) {
                    ledger.receive(event.path("id").asLong(), receivedAt);
                }
                cursor = Math.max(cursor, body.path("lastId").asLong(cursor));
            } catch (IOException failure) {
                failedPolls.incrementAndGet(); // e.g. the killed instance: the next poll goes to another one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Optional<Long> publishOne(HttpClient client, String label) throws InterruptedException {
        try {
            HttpResponse<String> answer = client.send(post(pick(), "{\"cluster\":\"" + label + "\"}"), HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() == 200 ? EventAnswers.idOf(answer.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private URI pick() {
        List<URI> now = live;
        return now.get(ThreadLocalRandom.current().nextInt(now.size()));
    }

    private static HttpRequest post(URI instance, String json) {
        return HttpRequest.newBuilder(instance.resolve("/events")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }
}
