package com.example.threading;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The two anti-patterns that start a thread per task, {@code /work/thread-per-request} and
 * {@code /fanout?via=common} (a new thread per call on JDK 17 with 2 CPUs), run under their caps on the real server:
 * beyond the cap, a JSON 503 with Retry-After, counted; the threads they start stay within the cap. (One test class
 * for both, so one server start; the caps are set low here to be quick.)
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AntiPatternCapsTest {

    private static final int CAP = 20;
    private static final int WAIT_MS = 4000;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("work.threadPerRequest.maxThreads", Integer.toString(CAP)),
            ConfigOverride.config("client.commonMaxCalls", Integer.toString(CAP)));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void threadPerRequestStartsAtMostItsCapOfThreadsAndRefusesTheRest() {
        long rejectedBefore = metrics().meter("work.thread-per-request.rejected").getCount();
        long startedBefore = gauge("work.thread-per-request.started-threads");
        int burst = 3 * CAP;

        List<CompletableFuture<Answer>> answers = IntStream.range(0, burst)
                .mapToObj(i -> HTTP.getAsync(app("/work/thread-per-request?ms=" + WAIT_MS))).toList();
        Await.until(() -> gauge("work.thread-per-request.live-threads") == CAP, Duration.ofSeconds(WAIT_MS / 1000 - 1),
                CAP + " live threads");
        assertThat(threadsNamed("work-thread-per-request-")).isLessThanOrEqualTo(CAP);

        List<Answer> done = answers.stream().map(CompletableFuture::join).toList();
        List<Answer> refused = done.stream().filter(a -> a.status() == 503).toList();
        assertThat(done.stream().filter(a -> a.status() == 200).count()).isEqualTo(CAP);
        assertThat(refused).hasSize(burst - CAP).allSatisfy(answer -> {
            assertThat(answer.header("Retry-After")).isEqualTo("1");
            assertThat(answer.json().get("code").asInt()).isEqualTo(503);
            assertThat(answer.json().get("message").asText()).contains("thread-per-request").doesNotContain("java.");
        });
        assertThat(metrics().meter("work.thread-per-request.rejected").getCount()).isEqualTo(rejectedBefore + burst - CAP);
        assertThat(gauge("work.thread-per-request.started-threads")).isEqualTo(startedBefore + CAP);
    }

    @Test
    void viaCommonRunsAtMostItsCapOfCallsAndOneRequestCannotStartAThousandThreads() {
        long rejectedBefore = metrics().meter("client.fanout.common.rejected").getCount();
        int threadsBefore = THREADS.getThreadCount();

        Answer thousand = HTTP.get(app("/fanout?n=1000&ms=5000&via=common"));
        assertThat(thousand.status()).isEqualTo(400);
        assertThat(thousand.json().get("message").asText()).contains("at most " + CAP).contains("client.commonMaxCalls");
        assertThat(THREADS.getThreadCount() - threadsBefore).as("threads started by n=1000").isLessThan(50);

        // On the common pool (JDK 25+, or 3+ CPUs) the calls run `parallelism` at a time, down to one by one: shorter
        // waits keep the test short there. Admitted calls count as in flight while they wait for a worker, too.
        boolean onCommonPool = Runtime.version().feature() >= 25 || ForkJoinPool.getCommonPoolParallelism() > 1;
        int ms = onCommonPool ? 250 : WAIT_MS;
        CompletableFuture<Answer> holding = HTTP.getAsync(app("/fanout?n=" + CAP + "&ms=" + ms + "&via=common"));
        Await.until(() -> gauge("client.fanout.common.in-flight") > 0, Duration.ofSeconds(WAIT_MS / 1000 - 1),
                "common calls in flight");
        assertThat(gauge("client.fanout.common.in-flight")).isLessThanOrEqualTo(CAP);
        // Any call still in flight leaves fewer than CAP places: a second fan-out of CAP does not fit.
        Answer busy = HTTP.get(app("/fanout?n=" + CAP + "&ms=0&via=common"));
        assertThat(busy.status()).isEqualTo(503);
        assertThat(busy.header("Retry-After")).isEqualTo("1");
        assertThat(busy.json().get("code").asInt()).isEqualTo(503);
        // The same JVM also runs the downstream (/work/cached, a thread per concurrent call) and the test client.
        assertThat(THREADS.getThreadCount() - threadsBefore).as("threads while %d common calls run", CAP).isLessThan(3 * CAP + 50);
        assertThat(HTTP.get(app("/fanout?n=1&ms=0&via=managed")).status()).as("other vias are not capped").isEqualTo(200);

        Answer held = holding.join();
        assertThat(held.status()).isEqualTo(200);
        assertThat(held.json().get("succeeded").asInt()).isEqualTo(CAP);
        assertThat(held.json().get("executor").asText()).contains("at most " + CAP + " calls in flight");
        Await.until(() -> gauge("client.fanout.common.in-flight") == 0, Duration.ofSeconds(5), "every place given back");
        assertThat(HTTP.get(app("/fanout?n=" + CAP + "&ms=0&via=common")).status()).as("the cap is free again").isEqualTo(200);
        assertThat(metrics().meter("client.fanout.common.rejected").getCount()).isEqualTo(rejectedBefore + 2);
    }

    private static long threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
    }

    private static long gauge(String name) {
        return ((Number) metrics().getGauges().get(name).getValue()).longValue();
    }

    private static MetricRegistry metrics() {
        return APP.getEnvironment().metrics();
    }

    private static String app(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
