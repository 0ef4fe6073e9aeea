package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.Await;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.example.threading.testing.RawHttpConnection;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code events.auth.type: jwt} on the real server: {@code 401} without or with a bad token (forged, {@code alg: none},
 * not yet valid), {@code 403} for a topic the token does not list (the whole request, before it touches the hub: nothing
 * parked or opened, no topic created, no history read), {@code 400} for a token in both places or twice, {@code 200}/{@code
 * 204} otherwise, on {@code GET /events}, {@code GET /events/blocking}, {@code POST /events} and {@code /events/batch}
 * (every topic in it, or none of its events), and on {@code GET /events/stream}; a poll or a stream ends when its token does, and a page renews an ended stream with a fresh token and
 * its last id; the refusals are counted on {@code /metrics} and {@code /prometheus}.
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

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @Test
    void theCallerIsInTheLogLinesOfItsPollsAnswerOnWhicheverThread() throws Exception {
        log.debug("com.example.threading.events.http.NonBlockingWrite");
        CompletableFuture<Answer> poll = HTTP.sendAsync(LoopbackHttp.request(url("/events?topic=room-1&timeout=30"))
                .header("Authorization", "Bearer " + ALICE).header("X-Request-Id", "alice-poll").build());
        Await.until(() -> gauge("events.parked") == 1, Duration.ofSeconds(20), "alice's poll parked");

        assertThat(publish("room-1", ALICE).status()).isEqualTo(200);

        assertThat(poll.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
        Await.until(() -> log.of("com.example.threading.events.http.NonBlockingWrite").stream()
                        .anyMatch(line -> "alice-poll".equals(line.getMDCPropertyMap().get("request_id"))),
                Duration.ofSeconds(10), "the poll's answer written");
        assertThat(log.of("com.example.threading.events.http.NonBlockingWrite"))
                .as("the poll's answer and the publish's, each with its caller")
                .allSatisfy(line -> assertThat(line.getMDCPropertyMap()).containsEntry("user", "alice"));
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
    void forgedUnsignedAndNotYetValidTokensAre401InvalidTokenNamingNothingSecret() {
        JWTClaimsSet mallory = Tokens.claims("mallory", Duration.ofMinutes(5), List.of("*"), List.of("*")).build();
        String forged = Tokens.hs256("another-secret-of-at-least-32-bytes-xx", mallory);
        String unsigned = new PlainJWT(mallory).serialize(); // "alg": "none"
        String notYetValid = Tokens.hs256(Tokens.SECRET, Tokens.claims("mallory", Duration.ofMinutes(10), List.of("*"), List.of("*"))
                .notBeforeTime(Date.from(Instant.now().plus(Duration.ofMinutes(5)))).build()); // nbf beyond any skew
        for (String token : List.of(forged, unsigned, notYetValid)) {
            for (String path : List.of("/events?topic=room-1&timeout=1", "/events/blocking?topic=room-1&timeout=1",
                    "/events/stream?topic=room-1")) {
                Answer answer = get(path, token);
                assertThat(answer.status()).as(path).isEqualTo(401);
                assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\", error=\"invalid_token\"");
                assertThat(answer.json().get("code").asInt()).isEqualTo(401);
                assertThat(answer.body()).doesNotContain(Tokens.SECRET).doesNotContain("mallory");
            }
            assertThat(publish("room-1", token).status()).isEqualTo(401);
        }
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
        assertThat(publish("room-1", ALICE).status()).isEqualTo(200);
        MetricRegistry metrics = APP.getEnvironment().metrics();
        int topicsBefore = gauge("events.topics.live");
        Map<String, Long> before = meters("events.topics.created", "events.answered-at-once", "events.missed",
                "events.epoch-mismatches", "events.auth.forbidden");
        // room-1's cursor is of another epoch: admitted, this poll would be answered at once with "missed" from the history.
        String many = "/events?topic=lobby-a:0&topic=lobby-b&topic=lobby-c:3&topic=room-1:0:an-old-epoch&topic=room-10&timeout=30";

        Answer async = get(many, ALICE);
        Answer blocking = get(many.replace("/events?", "/events/blocking?"), ALICE);

        assertThat(async.status()).isEqualTo(403);
        assertThat(async.json().get("message").asText()).contains("room-10");
        assertThat(blocking.status()).isEqualTo(403);
        assertThat(gauge("events.parked")).isZero();
        assertThat(gauge("events.blocking.waiting")).isZero();
        assertThat(gauge("events.topics.live")).as("no topic created").isEqualTo(topicsBefore);
        Map<String, Long> expected = new LinkedHashMap<>(before);
        expected.merge("events.auth.forbidden", 2L, Long::sum);
        assertThat(meters(before.keySet().toArray(String[]::new))).as("no topic created, no history read").isEqualTo(expected);

        // The same poll without room-10 does read the history, which those meters count.
        assertThat(get(many.replace("&topic=room-10", ""), ALICE).status()).isEqualTo(200);
        assertThat(metrics.meter("events.answered-at-once").getCount()).isEqualTo(before.get("events.answered-at-once") + 1);
        assertThat(metrics.meter("events.missed").getCount()).isEqualTo(before.get("events.missed") + 1);
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
    void aBatchIsPublishedOnlyWhenTheTokenCoversEveryTopicInIt() {
        long publishedBefore = APP.getEnvironment().metrics().meter("events.published").getCount();
        Answer refused = batch("[{\"topic\":\"room-1\",\"data\":1},{\"topic\":\"lobby-1\",\"data\":2}]", ALICE);
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        assertThat(refused.json().get("message").asText()).contains("publishing on topic lobby-1");
        assertThat(APP.getEnvironment().metrics().meter("events.published").getCount()).as("not even room-1's").isEqualTo(publishedBefore);

        Answer published = batch("[{\"topic\":\"room-1\",\"data\":1},{\"topic\":\"room-1\",\"data\":2}]", ALICE);
        assertThat(published.status()).as(published.body()).isEqualTo(200);
        assertThat(published.json().get("events")).hasSize(2);
        assertThat(batch("[{\"topic\":\"room-1\",\"data\":1}]", "not-a-token").status()).isEqualTo(401);
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
    void anEventStreamsRefusalsAreJsonNamingNothingSecretAndOpenNothing() {
        Map<String, Long> before = meters("events.sse.opened", "events.topics.created");
        int openBefore = gauge("events.sse.open");
        String forged = Tokens.hs256("another-secret-of-at-least-32-bytes-xx", Tokens.claims("mallory", Duration.ofMinutes(5),
                List.of("*"), List.of()).build());

        Answer anonymous = HTTP.get(url("/events/stream?topic=lobby-s1"));
        assertThat(anonymous.status()).isEqualTo(401);
        assertThat(anonymous.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\"");
        assertThat(anonymous.json().get("code").asInt()).isEqualTo(401);
        assertThat(anonymous.json().get("message").asText()).contains("Authorization: Bearer").contains("access_token");

        Answer badToken = get("/events/stream?topic=lobby-s1", forged);
        assertThat(badToken.status()).isEqualTo(401);
        assertThat(badToken.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\", error=\"invalid_token\"");
        assertThat(badToken.json().get("code").asInt()).isEqualTo(401);
        assertThat(badToken.body()).doesNotContain(Tokens.SECRET).doesNotContain("mallory");

        for (String query : List.of("topic=room-2", "topic=lobby-s1&topic=room-2" /* one topic refused: all */)) {
            Answer forbidden = get("/events/stream?" + query, ALICE);
            assertThat(forbidden.status()).as(query).isEqualTo(403);
            assertThat(forbidden.header("WWW-Authenticate")).as("valid credentials: no challenge").isNull();
            assertThat(forbidden.json().get("code").asInt()).isEqualTo(403);
            assertThat(forbidden.json().get("message").asText()).contains("room-2").doesNotContain("claim")
                    .doesNotContain(Tokens.SECRET).doesNotContain("alice");
        }

        // The token belongs in one place, once, as on a poll.
        Answer both = HTTP.send(LoopbackHttp.request(url("/events/stream?topic=lobby-s1&access_token=" + ALICE))
                .header("Authorization", "Bearer " + ALICE).GET().build());
        Answer twice = HTTP.get(url("/events/stream?topic=lobby-s1&access_token=" + ALICE + "&access_token=" + ALICE));
        for (Answer answer : List.of(both, twice)) {
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\", error=\"invalid_request\"");
            assertThat(answer.json().get("code").asInt()).isEqualTo(400);
        }

        assertThat(meters(before.keySet().toArray(String[]::new))).as("no stream opened, no topic created").isEqualTo(before);
        assertThat(gauge("events.sse.open")).isEqualTo(openBefore);
    }

    @Test
    void anEventStreamEndsWhenItsTokenDoesAndTheNextIs401() throws Exception {
        String shortLived = token(Duration.ofSeconds(2), List.of("room-1"), List.of());
        List<String> lines = streamUntilItEnds(LoopbackHttp.request(url("/events/stream?topic=room-1"))
                .header("Authorization", "Bearer " + shortLived)); // within 25 s: with the token, not at the 30 min lifetime
        assertThat(lines).as("the stream's last event").contains("event: reconnect");
        Await.until(() -> get("/events/stream?topic=room-1", shortLived).status() == 401, Duration.ofSeconds(5),
                "the expired token refused");
    }

    /**
     * What docs/sse.md tells a page to do when its stream ends with its token: the browser's own reconnect (the old URL)
     * is 401; a new stream with a fresh {@code access_token} and the last {@code id:} as {@code topic=T:N:E} cursors
     * gets what was published meanwhile, and nothing twice.
     */
    @Test
    void aPageRenewsAnEndedStreamWithAFreshQueryTokenAndItsLastIdAsCursors() throws Exception {
        String publisher = token(Duration.ofMinutes(10), List.of(), List.of("renew-*"));
        assertThat(publish("renew-a", publisher).status()).isEqualTo(200);
        String firstUrl = "/events/stream?topic=renew-a:0&topic=renew-b&access_token="
                + token(Duration.ofSeconds(2), List.of("renew-*"), List.of());

        List<String> first = streamUntilItEnds(LoopbackHttp.request(url(firstUrl)));
        assertThat(first).contains("event: reconnect");
        assertThat(eventData(first)).hasSize(1);
        String lastId = first.stream().filter(line -> line.startsWith("id: ")).reduce((a, b) -> b).orElseThrow().substring(4);
        assertThat(lastId).as("every topic's position").matches("renew-a:1:[A-Za-z0-9-]+,renew-b(:[0-9]+(:[A-Za-z0-9-]+)?)?");

        assertThat(publish("renew-a", publisher).status()).isEqualTo(200); // while the page renews its token
        assertThat(HTTP.get(url(firstUrl)).status()).as("what EventSource's own reconnect would get").isEqualTo(401);
        String cursors = Arrays.stream(lastId.split(",")).map(cursor -> "topic=" + cursor).collect(Collectors.joining("&"));
        List<String> second = streamUntilItEnds(LoopbackHttp.request(url("/events/stream?" + cursors + "&access_token="
                + token(Duration.ofSeconds(2), List.of("renew-*"), List.of()))));

        assertThat(eventData(second)).as("the event published meanwhile, and only it").hasSize(1);
        assertThat(eventData(second).get(0)).contains("\"id\":2").contains("\"topic\":\"renew-a\"");
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

    /** Every line of the event stream {@code request} opens (200), read until the server ends it (within 25 s). */
    private static List<String> streamUntilItEnds(HttpRequest.Builder request) throws Exception {
        HttpResponse<Stream<String>> stream = HTTP.client().send(request.GET().build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.statusCode()).isEqualTo(200);
        try (Stream<String> body = stream.body()) {
            return CompletableFuture.supplyAsync(body::toList).get(25, TimeUnit.SECONDS);
        }
    }

    /** The data of the events among a stream's {@code lines} (not of its final events, such as {@code reconnect}). */
    private static List<String> eventData(List<String> lines) {
        return lines.stream().filter(line -> line.startsWith("data: {\"id\":")).toList();
    }

    private static Map<String, Long> meters(String... names) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String name : names) {
            counts.put(name, APP.getEnvironment().metrics().meter(name).getCount());
        }
        return counts;
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

    private static Answer batch(String json, String token) {
        return HTTP.send(LoopbackHttp.request(url("/events/batch")).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private static int gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).intValue();
    }

    private static String url(String pathAndQuery) {
        return LoopbackHttp.url(APP.getLocalPort(), pathAndQuery);
    }
}
