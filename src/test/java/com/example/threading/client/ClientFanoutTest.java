package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** /fanout on the real server (random ports, the real config.yml), calling this server's own /work/cached. */
@ExtendWith(DropwizardExtensionsSupport.class)
class ClientFanoutTest {

    private static final String MANAGED_POOL = "jersey-client-fanout-";
    private static final long CLIENT_TIMEOUT_MS = 3_000;

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            // Short enough for the timeout test to be quick; above every ms the other tests ask for.
            ConfigOverride.config("client.timeout", CLIENT_TIMEOUT_MS + "ms"),
            // The /work/cached calls abandoned by the timeout test are answered into reset connections; the
            // support.CompleteAsyncOnFailedWrite filter WorkBundle maps completes them, so the graceful stop does not wait.
            ConfigOverride.config("server.shutdownGracePeriod", "10s"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void managedRunsEveryCallAtOnceOnTheManagedPool() {
        warmUp("managed");

        JsonNode answer = oneWave("n=50&ms=500&via=managed", 500);

        assertThat(answer.get("n").asInt()).as(answer.toString()).isEqualTo(50);
        assertThat(answer.get("via").asText()).as(answer.toString()).isEqualTo("managed");
        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isEqualTo(50);
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isZero();
        assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isBetween(500L, 2 * 500L - 1);
        // 50 blocking calls at once hold 50 threads at once; every filter and completion stage ran on the pool.
        assertThat(answer.get("distinctThreads").asInt()).as(answer.toString()).isGreaterThanOrEqualTo(50);
        assertOnlyPool(answer, MANAGED_POOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"rxjava", "callback"})
    void rxjavaAndCallbackAlsoRunEveryCallAtOnceOnTheManagedPool(String via) {
        warmUp(via);

        JsonNode answer = oneWave("n=20&ms=400&via=" + via, 400);

        assertThat(answer.get("via").asText()).as(answer.toString()).isEqualTo(via);
        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isEqualTo(20);
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isZero();
        assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isBetween(400L, 2 * 400L - 1);
        assertThat(answer.get("distinctThreads").asInt()).as(answer.toString()).isGreaterThanOrEqualTo(20);
        assertOnlyPool(answer, MANAGED_POOL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"managed", "rxjava", "callback", "common"})
    void aFanoutRightAfterAnotherThatTookEveryPlaceFindsThemFree(String via) {
        // The places come back before the last outcome answers: a client's next fan-out, sent as the answer
        // arrives, must not find them still taken (the wave scenario once got a 503 in 10 ms for it).
        int every = via.equals("common") ? 200 : 128; // config.yml's client.commonMaxCalls, maxCallsInFlight
        for (int round = 0; round < 5; round++) {
            JsonNode answer = fanout("n=" + every + "&ms=0&via=" + via);
            assertThat(answer.get("succeeded").asInt()).as("round %d: %s", round, answer).isEqualTo(every);
        }
    }

    @Test
    void rxjavaWithSevenHundredCallsIsAnswered() {
        // Jersey's RxJava2 invoker put two tasks per call on the pool; past 128 threads + 1,024 queued, RxJava dropped
        // what the pool refused and this fan-out never answered. One task per call, 128 at a time, now.
        JsonNode answer = fanout("n=700&ms=100&via=rxjava");

        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isEqualTo(700);
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isZero();
        assertThat(APP.getEnvironment().metrics().counter("client.fanout.executor.rejected").getCount()).isZero();
    }

    @Test
    void commonDoesWhatThisJvmImplies() {
        int n = 4;
        int ms = 300;
        JsonNode answer = fanout("n=" + n + "&ms=" + ms + "&via=common");

        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isEqualTo(n);
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isZero();
        // Read after the call: from JDK 25 on, CompletableFuture raises a common-pool parallelism of 0 to 2.
        int parallelism = ForkJoinPool.getCommonPoolParallelism();
        // JDK 25 (JDK-8362881) always uses the common pool; before, only when its parallelism is at least 2,
        // else a new thread per task.
        boolean usesCommonPool = Runtime.version().feature() >= 25 || parallelism > 1;
        if (usesCommonPool) {
            assertOnlyPool(answer, "ForkJoinPool.commonPool-worker-");
            assertThat(answer.get("distinctThreads").asInt()).as(answer.toString()).isBetween(1, Math.min(n, parallelism));
            int waves = (n + parallelism - 1) / parallelism; // a blocked worker runs nothing else meanwhile
            assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isGreaterThanOrEqualTo((long) waves * ms);
            assertThat(answer.get("executor").asText()).as(answer.toString()).contains("ForkJoinPool.commonPool() with parallelism " + parallelism);
        } else {
            assertOnlyPool(answer, "Thread-");
            assertThat(answer.get("distinctThreads").asInt()).as(answer.toString()).isEqualTo(n);
            assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isBetween((long) ms, (long) n * ms - 1);
            assertThat(answer.get("executor").asText()).as(answer.toString()).contains("a new thread per task");
        }
    }

    @Test
    void clientTimeoutsAreCountedInTheAnswer() {
        long ms = 3 * CLIENT_TIMEOUT_MS;
        JsonNode answer = fanout("n=3&ms=" + ms + "&via=managed");

        assertThat(answer.get("succeeded").asInt()).as(answer.toString()).isZero();
        assertThat(answer.get("errors").asInt()).as(answer.toString()).isEqualTo(3);
        assertThat(answer.get("errorsByKind").get("SocketTimeoutException").asInt()).isEqualTo(3);
        // Answered when the client gave up, not when the downstream would have.
        assertThat(answer.get("elapsedMs").asLong()).as(answer.toString()).isBetween(CLIENT_TIMEOUT_MS, ms - 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"n=0", "n=1001", "n=abc", "ms=-1", "ms=60001", "ms=abc", "via=bogus", "via="})
    void badInputIsA400WithJson(String query) {
        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?" + query));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.header("Content-Type")).startsWith("application/json");
        JsonNode body = response.json();
        // The service's one error shape (errors.ViolationsAsErrorMessage maps bean validation to it).
        assertThat(body.path("code").asInt()).as(response.body()).isEqualTo(400);
        assertThat(body.path("message").asText()).as(response.body()).contains(query.substring(0, query.indexOf('=')));
    }

    @Test
    void fanOutsAreTimedPerViaAndTheClientPoolAndRequestsAreInstrumented() {
        MetricRegistry metrics = APP.getEnvironment().metrics();
        long fanouts = metrics.timer("client.fanout.callback.response-time").getCount();
        long submitted = metrics.meter("client.fanout.executor.submitted").getCount();
        long requests = metrics.timer("org.apache.hc.client5.http.classic.HttpClient.fanout.get-requests").getCount();

        fanout("n=7&ms=0&via=callback");

        assertThat(metrics.timer("client.fanout.callback.response-time").getCount()).isEqualTo(fanouts + 1);
        assertThat(metrics.meter("client.fanout.executor.submitted").getCount()).isGreaterThanOrEqualTo(submitted + 7);
        assertThat(metrics.timer("org.apache.hc.client5.http.classic.HttpClient.fanout.get-requests").getCount())
                .isEqualTo(requests + 7);
    }

    /**
     * The first of up to 3 fan-outs that finish in one wave (under 2 × ms), else the last one. Dropwizard's
     * default pool (1 core thread, queue 8) can never do that: the 8 queued calls wait for a first call to end
     * its {@code ms}, then take {@code ms} more. A fast attempt can only be missed because this shared 2-core
     * machine was busy, hence the retries.
     */
    private static JsonNode oneWave(String query, long ms) {
        JsonNode answer = fanout(query);
        for (int attempt = 1; attempt < 3 && answer.get("elapsedMs").asLong() >= 2 * ms; attempt++) {
            answer = fanout(query);
        }
        return answer;
    }

    /** Creates the pool's threads and the connections, and gives the JIT a first look, on a shared 2-core machine. */
    private static void warmUp(String via) {
        for (int i = 0; i < 3; i++) {
            JsonNode answer = fanout("n=50&ms=0&via=" + via);
            assertThat(answer.get("errors").asInt()).as(answer.toString()).isZero();
        }
    }

    private static void assertOnlyPool(JsonNode answer, String pool) {
        List<String> pools = new ArrayList<>();
        answer.get("threadsByPool").fieldNames().forEachRemaining(pools::add);
        assertThat(pools).as(answer.toString()).containsExactly(pool);
        assertThat(answer.get("threadsByPool").get(pool).asInt()).isEqualTo(answer.get("distinctThreads").asInt());
        List<String> sample = new ArrayList<>();
        answer.get("threadSample").forEach(name -> sample.add(name.asText()));
        assertThat(sample).hasSize(Math.min(FanoutRun.THREAD_SAMPLE_SIZE, answer.get("distinctThreads").asInt()))
                .allSatisfy(name -> assertThat(name).startsWith(pool));
    }

    private static JsonNode fanout(String query) {
        LoopbackHttp.Answer response = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fanout?" + query));
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }
}
