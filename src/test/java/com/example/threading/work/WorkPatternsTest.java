package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each /work pattern's defining behaviour on the real server, with exact counts from the configured sizes:
 * a Jetty pool of {@value #JETTY_MAX_THREADS} threads and a bounded pool of {@value #BOUNDED_THREADS}
 * threads in front of a queue of {@value #BOUNDED_QUEUE}.
 *
 * <p>Server-level admission control is off here: these tests show each pattern's own behaviour past the Jetty pool
 * or its own pool (the blocking one: Jetty's unbounded job queue), which admission control, on by default, would
 * answer with 503s first (with 16 threads its default is 8 places). {@code admission.AdmissionControlTest} shows
 * what the same kind of burst gets with it on.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WorkPatternsTest {

    static final int JETTY_MAX_THREADS = 16;
    static final int BOUNDED_THREADS = 10;
    static final int BOUNDED_QUEUE = 10;

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("server.minThreads", "4"),
            ConfigOverride.config("server.maxThreads", String.valueOf(JETTY_MAX_THREADS)),
            ConfigOverride.config("admission.enabled", "false"),
            ConfigOverride.config("work.boundedPool.threads", String.valueOf(BOUNDED_THREADS)),
            ConfigOverride.config("work.boundedPool.queueCapacity", String.valueOf(BOUNDED_QUEUE)));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    static String app(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }

    static AdminMetrics admin() {
        return new AdminMetrics(HTTP, APP.getAdminPort());
    }

    static Set<String> threads(List<Answer> answers) {
        return answers.stream().map(a -> a.json().path("thread").asText()).collect(Collectors.toSet());
    }

    @Test
    void blockingQueuesTheExcessBehindTheJettyPool() {
        int requests = 3 * JETTY_MAX_THREADS;
        long timedBefore = admin().count("work.blocking.response-time");

        long start = System.nanoTime();
        CompletableFuture<List<Answer>> burst = CompletableFuture.supplyAsync(
                () -> HTTP.getAll(app("/work/blocking?ms=1000"), requests));
        Answer healthDuringBurst = waitForUnhealthy("jetty-thread-pool");
        List<Answer> answers = burst.join();
        long wallMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(answers).extracting(Answer::status).containsOnly(200);
        // No more than maxThreads requests wait at once, so 3 × maxThreads requests need at least 3 waits.
        assertThat(threads(answers)).hasSizeLessThanOrEqualTo(JETTY_MAX_THREADS)
                .allSatisfy(name -> assertThat(name).startsWith("dw-"));
        assertThat(wallMs).isGreaterThanOrEqualTo(3 * 1000);
        assertThat(healthDuringBurst.status()).isEqualTo(500);
        assertThat(healthDuringBurst.json().path("jetty-thread-pool").path("message").asText()).contains("low on threads");
        assertThat(admin().count("work.blocking.response-time") - timedBefore).isEqualTo(requests);
    }

    @Test
    void threadPerRequestStartsADistinctThreadForEveryRequest() {
        long startedBefore = admin().gauge("work.thread-per-request.started-threads");

        List<Answer> answers = HTTP.getAll(app("/work/thread-per-request?ms=200"), 20);

        assertThat(answers).extracting(Answer::status).containsOnly(200);
        assertThat(threads(answers)).hasSize(20).allSatisfy(name -> assertThat(name).startsWith("work-thread-per-request-"));
        long startedAfter = admin().gauge("work.thread-per-request.started-threads");
        assertThat(startedAfter - startedBefore).isEqualTo(20);
    }

    @Test
    void cachedRunsAHundredConcurrentWaitsInAboutOneWait() {
        int waitMs = 2000;
        List<Answer> answers = HTTP.getAll(app("/work/cached?ms=" + waitMs), 100);

        assertThat(answers).extracting(Answer::status).containsOnly(200);
        // 100 distinct threads: no wait ever found an idle thread, so all 100 waits ran at the same time
        // (a pool of 50 would have run half of them after the other half, on the same 50 threads).
        assertThat(threads(answers)).hasSize(100).allSatisfy(name -> assertThat(name).startsWith("work-cached-"));
        // About one wait each; the bound leaves room for a busy 2-core machine.
        assertThat(answers).allSatisfy(a -> assertThat(a.latencyMs()).isBetween((long) waitMs, 3L * waitMs));
    }

    @Test
    void boundedRunsThreadsPlusQueueAndRejectsTheRestAtOnceBurstAfterBurst() {
        // Two bursts: the second finds all threads created and idle, when a plain ThreadPoolExecutor would
        // push every task through its queue and refuse some while threads are idle.
        for (int burst = 1; burst <= 2; burst++) {
            int waitMs = 2500;
            long rejectedBefore = admin().count("work.bounded.rejected");

            CompletableFuture<List<Answer>> answersFuture = CompletableFuture.supplyAsync(
                    () -> HTTP.getAll(app("/work/bounded?ms=" + waitMs), 100));
            Answer healthDuringBurst = waitForUnhealthy("work-bounded-pool");
            List<Answer> answers = answersFuture.join();

            List<Answer> ok = answers.stream().filter(a -> a.status() == 200).toList();
            List<Answer> refused = answers.stream().filter(a -> a.status() != 200).toList();
            assertThat(ok).as("burst %d", burst).hasSize(BOUNDED_THREADS + BOUNDED_QUEUE);
            assertThat(threads(ok)).hasSize(BOUNDED_THREADS).allSatisfy(name -> assertThat(name).startsWith("work-bounded-"));
            assertThat(refused).hasSize(100 - BOUNDED_THREADS - BOUNDED_QUEUE).allSatisfy(a -> {
                assertThat(a.status()).isEqualTo(503);
                assertThat(a.header("Retry-After")).isEqualTo("1");
                assertThat(a.json().path("code").asInt()).isEqualTo(503);
                assertThat(a.latencyMs()).isLessThan(waitMs);
            });
            assertThat(admin().count("work.bounded.rejected") - rejectedBefore).isEqualTo(80);
            assertThat(healthDuringBurst.status()).isEqualTo(500);
            assertThat(healthDuringBurst.json().path("work-bounded-pool").path("message").asText()).startsWith("saturated");
            // Places are given back just after the answers are sent: healthy again within moments.
            assertThat(waitForHealthy().status()).isEqualTo(200);
        }
    }

    @Test
    void virtualRunsOnAVirtualThreadOrExplainsWhyNot() {
        Answer answer = HTTP.get(app("/work/virtual?ms=50"));

        if (Runtime.version().feature() >= 21) {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.json().path("virtualThread").asBoolean()).isTrue();
            assertThat(answer.json().path("thread").asText()).startsWith("work-virtual-");
        } else {
            assertThat(answer.status()).isEqualTo(501);
            assertThat(answer.header("Content-Type")).startsWith("application/json");
            assertThat(answer.json().path("message").asText()).contains("JDK 21");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"blocking", "thread-per-request", "cached", "bounded", "virtual"})
    void badWaitIsA400JsonAndAbsentWaitIsRandom(String pattern) {
        for (String bad : List.of("-1", "60001", "abc", "1.5", "")) {
            Answer answer = HTTP.get(app("/work/" + pattern + "?ms=" + bad));
            assertThat(answer.status()).as("ms=%s", bad).isEqualTo(400);
            assertThat(answer.header("Content-Type")).startsWith("application/json");
            assertThat(answer.json().isObject()).isTrue();
        }
        Answer random = HTTP.get(app("/work/" + pattern));
        if (random.status() != 501) {
            assertThat(random.status()).isEqualTo(200);
            assertThat(random.json().path("pattern").asText()).isEqualTo(pattern);
            assertThat(random.json().path("requestedMs").asLong()).isBetween(0L, 2000L);
        }
    }

    @Test
    void patternMetricsAreOnTheAdminPortAndPrometheusParses() {
        HTTP.get(app("/work/cached?ms=1"));
        JsonNode metrics = admin().metrics();
        for (String pattern : WorkBundle.PATTERNS) {
            assertThat(metrics.path("timers").has("work." + pattern + ".response-time")).as(pattern).isTrue();
        }
        for (String pool : List.of("cached", "bounded")) {
            assertThat(metrics.path("meters").has("work." + pool + ".executor.submitted")).isTrue();
            assertThat(metrics.path("counters").has("work." + pool + ".executor.running")).isTrue();
            assertThat(metrics.path("counters").has("work." + pool + ".executor.rejected")).isTrue();
            assertThat(metrics.path("meters").has("work." + pool + ".rejected")).isTrue();
            assertThat(metrics.path("timers").has("work." + pool + ".executor.duration")).isTrue();
            assertThat(metrics.path("gauges").has("work." + pool + ".executor.tasks.queued")).isTrue();
        }
        assertThat(metrics.path("gauges").has("work.thread-per-request.live-threads")).isTrue();
        assertThat(metrics.path("gauges").has("work.bounded.places-taken")).isTrue();
        assertThat(metrics.path("gauges").has("org.eclipse.jetty.util.thread.QueuedThreadPool.dw.utilization")).isTrue();

        String prometheus = admin().prometheusText();
        List<String> typeLines = prometheus.lines().filter(l -> l.startsWith("# TYPE ")).toList();
        Set<String> names = typeLines.stream().map(l -> l.split(" ")[2]).collect(Collectors.toSet());
        assertThat(names).as("metric family names are unique").hasSize(typeLines.size());
        assertThat(prometheus).contains("work_request_duration_seconds_count{pattern=\"cached\"}", "work_rejected_total{pattern=\"bounded\"}");
        // Every sample line belongs to a declared family: "name{labels} value" or "name value".
        prometheus.lines().filter(l -> !l.startsWith("#") && !l.isBlank()).forEach(sample ->
                assertThat(sample).matches("[a-zA-Z_:][a-zA-Z0-9_:]*(\\{.*})? [-+0-9.eEInfa]+"));
    }

    /** Polls /healthcheck until {@code check} is unhealthy (at most 5 s) and returns that answer. */
    private static Answer waitForUnhealthy(String check) {
        return Await.until(() -> admin().healthcheck(), answer -> !answer.json().path(check).path("healthy").asBoolean(true),
                Duration.ofSeconds(5), check + " unhealthy");
    }

    /** Polls /healthcheck until every check is healthy (at most 5 s) and returns that answer. */
    private static Answer waitForHealthy() {
        return Await.until(() -> admin().healthcheck(), answer -> answer.status() == 200, Duration.ofSeconds(5),
                "every check healthy");
    }
}
