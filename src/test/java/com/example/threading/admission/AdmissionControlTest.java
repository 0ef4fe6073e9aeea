package com.example.threading.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Admission control on the real server with small, explicit limits ({@value #MAX_REQUESTS} in flight,
 * {@value #MAX_QUEUED} waiting for at most {@value #MAX_QUEUE_TIME_MS} ms, Retry-After {@value #RETRY_AFTER_S}):
 * a burst far past them, the long-polls it must not count, the admin port, the async patterns' places, recovery.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdmissionControlTest {

    static final int MAX_REQUESTS = 10;
    static final int MAX_QUEUED = 10;
    static final int MAX_QUEUE_TIME_MS = 500;
    static final int RETRY_AFTER_S = 2;
    static final int WORK_MS = 2000;

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("server.maxThreads", "64"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("admission.maxRequests", String.valueOf(MAX_REQUESTS)),
            ConfigOverride.config("admission.maxQueued", String.valueOf(MAX_QUEUED)),
            ConfigOverride.config("admission.maxQueueTime", MAX_QUEUE_TIME_MS + "ms"),
            ConfigOverride.config("admission.retryAfter", RETRY_AFTER_S + "s"));

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

    @Test
    void aBurstPastTheLimitGetsOnly200Or503WhileLongPollsStayParkedAndTheAdminPortAnswers() {
        int asyncPolls = 3 * (MAX_REQUESTS + MAX_QUEUED);
        int blockingPolls = 3;
        List<CompletableFuture<Answer>> polls = new ArrayList<>();
        for (int i = 0; i < asyncPolls; i++) {
            polls.add(HTTP.getAsync(app("/events?timeout=60")));
        }
        for (int i = 0; i < blockingPolls; i++) {
            polls.add(HTTP.getAsync(app("/events/blocking?timeout=60")));
        }
        // More polls parked than places and queue together: the long-polls take no place.
        Await.until(() -> admin().gauge("events.parked") == asyncPolls
                && admin().gauge("events.blocking.waiting") == blockingPolls, Duration.ofSeconds(20), "polls parked");
        assertThat(admin().gauge("admission.active")).isZero();

        long rejectedBefore = admin().count("admission.rejected");
        long admittedBefore = admin().count("admission.queue-wait");
        int burst = 100;
        CompletableFuture<List<Answer>> answersFuture = CompletableFuture.supplyAsync(
                () -> HTTP.getAll(app("/work/blocking?ms=" + WORK_MS), burst));

        Await.until(() -> admin().gauge("admission.active") == MAX_REQUESTS, Duration.ofSeconds(10), "places taken");
        Answer health = admin().healthcheck();
        List<Answer> answers = answersFuture.join();

        // The admin connector is not behind admission control: it answers while every place is taken.
        assertThat(health.latencyMs()).as("healthcheck during the burst").isLessThan(1000);
        List<Answer> ok = answers.stream().filter(a -> a.status() == 200).toList();
        List<Answer> refused = answers.stream().filter(a -> a.status() != 200).toList();
        assertThat(ok.size()).isBetween(MAX_REQUESTS, MAX_REQUESTS + MAX_QUEUED);
        assertThat(refused).hasSize(burst - ok.size()).allSatisfy(a -> {
            assertThat(a.status()).isEqualTo(503);
            assertThat(a.header("Retry-After")).isEqualTo(String.valueOf(RETRY_AFTER_S));
            assertThat(a.header("Content-Type")).startsWith("application/json");
            assertThat(a.json().path("code").asInt()).isEqualTo(503);
            assertThat(a.json().path("message").asText()).startsWith("server busy");
            // Refused at once or after maxQueueTime, never after waiting as long as the work takes.
            assertThat(a.latencyMs()).isLessThan(WORK_MS);
        });
        // The meter counts exactly the 503s sent, and every counted request was either admitted or refused.
        long rejected = admin().count("admission.rejected") - rejectedBefore;
        assertThat(rejected).isEqualTo(refused.size());
        assertThat(admin().count("admission.queue-wait") - admittedBefore).isEqualTo(ok.size());
        assertThat(admin().count("admission.rejected.queue-full") + admin().count("admission.rejected.queue-timeout"))
                .isEqualTo(admin().count("admission.rejected"));

        // Recovery is immediate: the places are free as soon as the answers are written.
        Await.until(() -> admin().gauge("admission.active") == 0 && admin().gauge("admission.queued") == 0,
                Duration.ofSeconds(5), "places free");
        assertThat(HTTP.get(app("/work/blocking?ms=10")).status()).isEqualTo(200);

        // The long-polls were untouched by the burst and are answered by the next event.
        assertThat(polls).noneMatch(CompletableFuture::isDone);
        assertThat(HTTP.postJson(app("/events"), "{\"after\":\"burst\"}").status()).isEqualTo(200);
        for (CompletableFuture<Answer> poll : polls) {
            Answer answer = poll.join();
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.json().path("events").get(0).path("data").path("after").asText()).isEqualTo("burst");
        }
    }

    @Test
    void anAsyncRequestHoldsItsPlaceUntilItsAnswerIsWrittenNotWhileItHoldsAThreadAndPublishingIsNotCounted() {
        CompletableFuture<List<Answer>> cached = CompletableFuture.supplyAsync(
                () -> HTTP.getAll(app("/work/cached?ms=" + WORK_MS), MAX_REQUESTS));
        Await.until(() -> admin().gauge("admission.active") == MAX_REQUESTS, Duration.ofSeconds(10), "places taken");

        // Jetty's pool is almost idle (the waits run on work-cached-*), yet every place is taken: this one waits
        // maxQueueTime and is refused.
        Answer extra = HTTP.get(app("/work/blocking?ms=0"));
        assertThat(extra.status()).isEqualTo(503);
        assertThat(extra.latencyMs()).isGreaterThanOrEqualTo(MAX_QUEUE_TIME_MS - 50L);
        assertThat(extra.json().path("message").asText()).contains("no place free within " + MAX_QUEUE_TIME_MS + " ms");
        // POST /events is not counted (its body is read without a thread, under its own deadline): answered meanwhile.
        assertThat(HTTP.postJson(app("/events"), "{\"while\":\"full\"}").status()).isEqualTo(200);
        // Neither is the load balancer's readiness probe: a busy instance stays in rotation (docs/operations.md).
        assertThat(HTTP.get(app("/ready")).status()).isEqualTo(200);
        // Nor a socket's upgrade (websocket.maxSockets bounds those): over h2c a client opens hundreds at once.
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + APP.getLocalPort() + "/events/ws?topic=while-full"), new WebSocket.Listener() { })
                .orTimeout(10, TimeUnit.SECONDS).join();
        socket.abort();

        assertThat(cached.join()).extracting(Answer::status).containsOnly(200);
        Await.until(() -> admin().gauge("admission.active") == 0, Duration.ofSeconds(5), "places free");
    }

    @Test
    void theHandlerIsInTheApplicationContextAndItsMetricsOnTheAdminPortAndInPrometheus() {
        AdmissionHandler handler = APP.getEnvironment().getApplicationContext().getDescendant(AdmissionHandler.class);
        assertThat(handler).isNotNull();
        assertThat(handler.getMaxRequestCount()).isEqualTo(MAX_REQUESTS);
        assertThat(handler.getMaxSuspend()).isEqualTo(Duration.ofMillis(MAX_QUEUE_TIME_MS));
        assertThat(APP.getEnvironment().getAdminContext().getDescendant(AdmissionHandler.class)).isNull();
        assertThat(admin().gauge("admission.max-requests")).isEqualTo(MAX_REQUESTS);
        String prometheus = admin().prometheusText();
        assertThat(prometheus).contains("admission_rejected_total", "admission_active", "admission_queued",
                "admission_queue_wait_seconds_count", "admission_max_requests");
    }
}
