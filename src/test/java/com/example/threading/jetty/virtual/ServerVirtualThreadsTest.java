package com.example.threading.jetty.virtual;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

/**
 * With {@code serverVirtualThreads.enabled}, the blocking endpoints block a virtual thread each, bounded by
 * {@code maxConcurrent} and not by {@code server.maxThreads} (200 here, as in config.yml).
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class ServerVirtualThreadsTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    private DropwizardTestSupport<ThreadingConfiguration> server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.after(); // idempotent
        }
    }

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    private DropwizardTestSupport<ThreadingConfiguration> start(int maxConcurrent) throws Exception {
        return start(maxConcurrent, true);
    }

    private DropwizardTestSupport<ThreadingConfiguration> start(int maxConcurrent, boolean admission) throws Exception {
        server = new DropwizardTestSupport<>(ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("admission.enabled", Boolean.toString(admission)),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("server.maxThreads", "200"),
                ConfigOverride.config("server.shutdownGracePeriod", "30s"),
                ConfigOverride.config("events.tickPeriod", "0s"),
                ConfigOverride.config("serverVirtualThreads.enabled", "true"),
                ConfigOverride.config("serverVirtualThreads.maxConcurrent", Integer.toString(maxConcurrent)));
        server.before();
        return server;
    }

    @Test
    void aThousandBlockingRequestsRunAtOnce() throws Exception {
        start(10_000);
        HTTP.getAll(url("/work/blocking?ms=1"), 20); // connections and classes warm

        List<CompletableFuture<Answer>> pending = IntStream.range(0, 1000)
                .mapToObj(i -> HTTP.getAsync(url("/work/blocking?ms=5000"))).toList();
        // 200 platform threads (server.maxThreads) would never hold more than 200 of them at once.
        Await.until(() -> gauge("server.virtual-threads.running") >= 1000, Duration.ofSeconds(30),
                "1,000 requests blocked at once, each on a virtual thread of its own");
        List<Answer> answers = pending.stream().map(CompletableFuture::join).toList();

        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.json().path("virtualThread").asBoolean()).isTrue();
            assertThat(answer.json().path("thread").asText()).startsWith(ServerVirtualThreads.THREAD_NAME_PREFIX);
        });
        Await.until(() -> gauge("server.virtual-threads.running") == 0, Duration.ofSeconds(10), "every virtual thread done");
        assertThat(gauge("server.virtual-threads.started")).isGreaterThanOrEqualTo(1020);
        // Admission control's default limit comes from this bound (10,000 minus its 5 % margin), not from maxThreads.
        assertThat(gauge("admission.max-requests")).isEqualTo(9_500);
    }

    @Test
    void http2StreamsRunOnVirtualThreadsToo() throws Exception {
        start(10_000);
        try (LoopbackHttp http2 = new LoopbackHttp(HttpClient.Version.HTTP_2)) {
            http2.get(url("/work/blocking?ms=1")); // the h2c upgrade
            List<Answer> answers = http2.getAll(url("/work/blocking?ms=200"), 20);
            assertThat(answers).allSatisfy(answer -> {
                assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
                assertThat(answer.json().path("virtualThread").asBoolean()).isTrue();
                assertThat(answer.json().path("thread").asText()).startsWith(ServerVirtualThreads.THREAD_NAME_PREFIX);
            });
        }
    }

    @Test
    void maxConcurrentIsTheBoundNotServerMaxThreads() throws Exception {
        start(50, false); // admission off: its places (derived from 50) would otherwise refuse some of the 100
        long start = System.nanoTime();
        List<CompletableFuture<Answer>> answers = IntStream.range(0, 100)
                .mapToObj(i -> HTTP.getAsync(url("/work/blocking?ms=700"))).toList();
        Await.until(() -> gauge("server.virtual-threads.running") == 50 && gauge("server.virtual-threads.waiting") == 50,
                Duration.ofSeconds(10), "50 running and 50 waiting for a permit");
        answers.forEach(answer -> assertThat(answer.join().status()).isEqualTo(200));
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(elapsedMs).as("two rounds of 700 ms").isGreaterThanOrEqualTo(1_400);
        assertThat(gauge("server.virtual-threads.waited")).isGreaterThanOrEqualTo(50);
        assertThat(gauge("server.virtual-threads.max-concurrent")).isEqualTo(50);
    }

    @Test
    void twoThousandBlockedPollsAreAnsweredByOneEventAndByTheStop() throws Exception {
        start(10_000);
        List<CompletableFuture<Answer>> polls = blockPolls(2000);

        // Publishing runs on a virtual thread of its own while 2,000 others wait.
        Answer published = HTTP.postJson(url("/events"), "{\"n\":1}");
        assertThat(published.status()).isBetween(200, 299);
        // Had publishing queued behind the blocked polls, it would have waited for their 60 s timeout.
        assertThat(published.latencyMs()).as("publish latency with 2,000 blocked polls, ms").isLessThan(30_000);
        for (CompletableFuture<Answer> poll : polls) {
            Answer answer = poll.get(30, TimeUnit.SECONDS);
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).contains("\"n\":1");
        }

        List<CompletableFuture<Answer>> stopped = blockPolls(2000);
        long start = System.nanoTime();
        server.after();
        long stopMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        for (CompletableFuture<Answer> poll : stopped) {
            Answer answer = poll.get(10, TimeUnit.SECONDS);
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.header("Retry-After")).as("events.shutdownSpread, 3 s").isIn("0", "1", "2", "3");
        }
        // Ended by answering the polls, not by the 30 s grace period running out (nor the 60 s the polls asked for).
        assertThat(stopMs).isLessThan(25_000);
    }

    private List<CompletableFuture<Answer>> blockPolls(int count) {
        List<CompletableFuture<Answer>> polls = IntStream.range(0, count)
                .mapToObj(i -> HTTP.getAsync(url("/events/blocking?timeout=60"))).toList();
        Await.until(() -> gauge("events.blocking.waiting") == count, Duration.ofSeconds(30), count + " blocked polls");
        assertThat(gauge("server.virtual-threads.running")).isGreaterThanOrEqualTo(count);
        return polls;
    }

    private String url(String pathAndQuery) {
        return LoopbackHttp.url(server.getLocalPort(), pathAndQuery);
    }

    private long gauge(String name) {
        Gauge<?> gauge = server.getEnvironment().metrics().getGauges().get(name);
        return ((Number) gauge.getValue()).longValue();
    }
}
