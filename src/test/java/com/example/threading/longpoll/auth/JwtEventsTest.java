package com.example.threading.longpoll.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code events.auth.type: jwt} on the real server: {@code 401} without or with a bad token, {@code 403} for a topic
 * the token does not list (the whole request, before it touches the hub: nothing parked, no topic created), {@code 400}
 * for a token in both places, {@code 200}/{@code 204} otherwise, on {@code GET /events}, {@code GET /events/blocking}
 * and {@code POST /events}, and on {@code GET /events/stream}; a poll or a stream ends when its token does; the refusals
 * are counted on {@code /metrics} and {@code /prometheus}.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JwtEventsTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("events.auth.type", "jwt"),
            ConfigOverride.config("events.auth.jwt.secret", Tokens.SECRET),
            ConfigOverride.config("events.auth.jwt.clockSkew", "0s"),
            ConfigOverride.config("events.auth.jwt.queryToken", "true"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    /** Alice reads room-1 and every lobby-*, and publishes on room-1. */
    private static final String ALICE = token(Duration.ofMinutes(10), List.of("room-1", "lobby-*"), List.of("room-1"));

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void noTokenIs401WithAChallengeOnEveryEndpoint() {
        for (Answer answer : List.of(HTTP.get(url("/events?topic=room-1&timeout=1")), HTTP.get(url("/events/blocking?topic=room-1&timeout=1")),
                HTTP.postJson(url("/events?topic=room-1"), "{}"))) {
            assertThat(answer.status()).as(answer.body()).isEqualTo(401);
            assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\"");
            assertThat(answer.json().get("code").asInt()).isEqualTo(401);
            assertThat(answer.json().get("message").asText()).contains("Authorization: Bearer");
        }
    }

    @Test
    void aBadTokenIs401InvalidTokenNamingNothingSecret() {
        String forged = Tokens.hs256("another-secret-of-at-least-32-bytes-xx", Tokens.claims("mallory", Duration.ofMinutes(5),
                List.of("*"), List.of("*")).build());
        for (String path : List.of("/events?topic=room-1&timeout=1", "/events/blocking?topic=room-1&timeout=1")) {
            Answer answer = get(path, forged);
            assertThat(answer.status()).isEqualTo(401);
            assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\", error=\"invalid_token\"");
            assertThat(answer.body()).doesNotContain(Tokens.SECRET).doesNotContain("mallory");
        }
        assertThat(publish("room-1", forged).status()).isEqualTo(401);
    }

    @Test
    void theTokensTopicsAreReadAndTheOthersAre403() {
        assertThat(get("/events?topic=room-1&timeout=1", ALICE).status()).isEqualTo(204);
        assertThat(get("/events/blocking?topic=lobby-7&timeout=1", ALICE).status()).isEqualTo(204);

        for (String path : List.of("/events?topic=room-10&timeout=1", "/events/blocking?topic=room-10&timeout=1",
                "/events?timeout=1" /* the default topic, which the token does not list */)) {
            Answer refused = get(path, ALICE);
            assertThat(refused.status()).as(path).isEqualTo(403);
            assertThat(refused.json().get("code").asInt()).isEqualTo(403);
            assertThat(refused.json().get("message").asText()).doesNotContain("claim").doesNotContain(Tokens.SECRET);
        }
    }

    @Test
    void aPollOfManyTopicsWithOneRefusedIsRefusedWholeAndTouchesNothing() throws Exception {
        MetricRegistry metrics = APP.getEnvironment().metrics();
        int topicsBefore = gauge("events.topics.live");
        long createdBefore = metrics.meter("events.topics.created").getCount();
        long forbiddenBefore = metrics.meter("events.auth.forbidden").getCount();
        String many = "/events?topic=lobby-a:0&topic=lobby-b&topic=lobby-c:3&topic=room-1&topic=room-10&timeout=30";

        Answer async = get(many, ALICE);
        Answer blocking = get(many.replace("/events?", "/events/blocking?"), ALICE);

        assertThat(async.status()).isEqualTo(403);
        assertThat(async.json().get("message").asText()).contains("room-10");
        assertThat(blocking.status()).isEqualTo(403);
        assertThat(gauge("events.parked")).isZero();
        assertThat(gauge("events.blocking.waiting")).isZero();
        assertThat(gauge("events.topics.live")).as("no topic created").isEqualTo(topicsBefore);
        assertThat(metrics.meter("events.topics.created").getCount()).isEqualTo(createdBefore);
        assertThat(metrics.meter("events.auth.forbidden").getCount()).isEqualTo(forbiddenBefore + 2);
    }

    @Test
    void publishingFollowsThePublishClaim() throws Exception {
        Answer published = publish("room-1", ALICE);
        assertThat(published.status()).as(published.body()).isEqualTo(200);
        assertThat(published.json().get("topic").asText()).isEqualTo("room-1");

        long createdBefore = APP.getEnvironment().metrics().meter("events.topics.created").getCount();
        Answer refused = publish("lobby-1", ALICE);
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.header("Connection")).isEqualTo("close");
        assertThat(APP.getEnvironment().metrics().meter("events.topics.created").getCount()).isEqualTo(createdBefore);

        // Refused from the head: the answer comes at once although the announced body never does.
        String noPublishClaim = "Authorization: Bearer " + token(Duration.ofMinutes(1), List.of(), List.of("x"));
        for (String[] refusal : new String[][] {{"401", "X-No-Token: 1"}, {"403", noPublishClaim}}) {
            try (RawHttpConnection connection = RawHttpConnection.open(APP.getLocalPort())) {
                String head = RawHttpConnection.requestHead("POST", "/events?topic=room-1", "Content-Type: application/json",
                        "Content-Length: 100", refusal[1]);
                connection.socket().setSoTimeout(5_000);
                String answer = connection.send(head + "{\"").readToEnd();
                assertThat(answer).startsWith("HTTP/1.1 " + refusal[0] + " ");
                assertThat(answer.toLowerCase()).contains("connection: close");
            }
        }
    }

    @Test
    void theQueryTokenWorksAloneAndNotBesideTheHeader() {
        assertThat(HTTP.get(url("/events?topic=room-1&timeout=1&access_token=" + ALICE)).status()).isEqualTo(204);

        Answer both = HTTP.send(LoopbackHttp.request(url("/events?topic=room-1&timeout=1&access_token=" + ALICE))
                .header("Authorization", "Bearer " + ALICE).GET().build());
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.header("WWW-Authenticate")).contains("error=\"invalid_request\"");
        assertThat(HTTP.send(LoopbackHttp.request(url("/events?topic=room-1&access_token=" + ALICE))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{}")).build()).status())
                .as("a publish takes the header only").isEqualTo(400);
    }

    @Test
    void aHugeTokenIs401OrRefusedByJettyNever500() {
        Answer long1 = get("/events?topic=room-1&timeout=1", "x".repeat(5_000));
        assertThat(long1.status()).isEqualTo(401);
        assertThat(long1.json().get("message").asText()).contains("longer than");

        Answer huge = get("/events?topic=room-1&timeout=1", "x".repeat(20_000));
        assertThat(huge.status()).as("beyond Jetty's request header size").isEqualTo(431);
    }

    @Test
    void aParkedPollEndsWhenItsTokenDoesAndTheNextIs401() throws Exception {
        String shortLived = token(Duration.ofSeconds(2), List.of("room-1"), List.of());
        long start = System.nanoTime();
        CompletableFuture<Answer> async = HTTP.sendAsync(LoopbackHttp.request(url("/events?topic=room-1&timeout=30"))
                .header("Authorization", "Bearer " + shortLived).GET().build());
        CompletableFuture<Answer> blocking = HTTP.sendAsync(LoopbackHttp.request(url("/events/blocking?topic=room-1&timeout=30"))
                .header("Authorization", "Bearer " + shortLived).GET().build());

        assertThat(async.get(25, TimeUnit.SECONDS).status()).isEqualTo(204);
        assertThat(blocking.get(25, TimeUnit.SECONDS).status()).isEqualTo(204);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ended with the token, not at the poll's 30 s")
                .isLessThan(Duration.ofSeconds(25));
        Await.until(() -> get("/events?topic=room-1&timeout=1", shortLived).status() == 401, Duration.ofSeconds(5),
                "the expired token refused");
    }

    @Test
    void anEventStreamIsRefusedLikeAPollAndEndsWhenItsTokenDoes() throws Exception {
        Answer anonymous = HTTP.get(url("/events/stream?topic=room-1"));
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\"");
        assertThat(get("/events/stream?topic=room-2", ALICE).status()).as("a topic the token does not list").isEqualTo(403);
        assertThat(get("/events/stream?topic=room-1&topic=room-2", ALICE).status()).as("one topic refused: all").isEqualTo(403);

        String shortLived = token(Duration.ofSeconds(2), List.of("room-1"), List.of());
        long start = System.nanoTime();
        HttpResponse<Stream<String>> stream = HTTP.client().send(LoopbackHttp.request(url("/events/stream?topic=room-1"))
                .header("Authorization", "Bearer " + shortLived).GET().build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        List<String> lines;
        try (Stream<String> body = stream.body()) {
            lines = body.toList(); // until the server ends the stream
        }
        assertThat(lines).as("the stream's last event").contains("event: reconnect");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("ended with the token, not at the 30 min lifetime")
                .isLessThan(Duration.ofSeconds(25));
        Await.until(() -> get("/events/stream?topic=room-1", shortLived).status() == 401, Duration.ofSeconds(5),
                "the expired token refused");
    }

    @Test
    void refusalsAreCountedOnMetricsAndPrometheus() {
        AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
        long unauthenticated = admin.count("events.auth.unauthenticated");
        long forbidden = admin.count("events.auth.forbidden");
        long badRequests = admin.count("events.auth.bad-requests");

        HTTP.get(url("/events?topic=room-1&timeout=1"));
        get("/events?topic=room-2&timeout=1", ALICE);
        HTTP.send(LoopbackHttp.request(url("/events?access_token=a&access_token=b")).GET().build());

        assertThat(admin.count("events.auth.unauthenticated")).isEqualTo(unauthenticated + 1);
        assertThat(admin.count("events.auth.forbidden")).isEqualTo(forbidden + 1);
        assertThat(admin.count("events.auth.bad-requests")).isEqualTo(badRequests + 1);
        assertThat(admin.prometheus("events_auth_unauthenticated_total")).isPresent();
        assertThat(admin.prometheus("events_auth_forbidden_total")).isPresent();
    }

    private static String token(Duration lifetime, List<String> subscribe, List<String> publish) {
        return Tokens.hs256(Tokens.SECRET, Tokens.claims("alice", lifetime, subscribe, publish).build());
    }

    private static Answer get(String pathAndQuery, String token) {
        return HTTP.send(LoopbackHttp.request(url(pathAndQuery)).header("Authorization", "Bearer " + token).GET().build());
    }

    private static Answer publish(String topic, String token) {
        return HTTP.send(LoopbackHttp.request(url("/events?topic=" + topic)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"hello\":1}")).build());
    }

    private static int gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).intValue();
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
