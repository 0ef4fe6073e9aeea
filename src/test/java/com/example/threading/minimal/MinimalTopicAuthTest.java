package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.access.jwt.Tokens;
import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.nimbusds.jwt.PlainJWT;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MinimalTopicAuth} in front of {@link MinimalLongPoll} in a bare Dropwizard application: no, forged, unsigned
 * or expired tokens get 401 with a challenge, a topic the token does not list (one of several, or a longer name than
 * the one listed) gets 403, both at once and as JSON; the topics it lists, exactly or by prefix, reach the poll.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MinimalTopicAuthTest {

    /** A copier's application: the long-poll's two lines and the filter's two. */
    public static final class App extends Application<Configuration> {
        private volatile MinimalLongPoll polls;

        @Override
        public void run(Configuration configuration, Environment environment) {
            polls = new MinimalLongPoll(100, 64, Duration.ofSeconds(1));
            environment.servlets().addServlet("minimal-longpoll", polls).addMapping("/minimal/events");
            environment.lifecycle().addEventListener(polls);
            new MinimalTopicAuth(Tokens.SECRET.getBytes(StandardCharsets.UTF_8)).protect(environment, "/minimal/events");
        }
    }

    private static final DropwizardAppExtension<Configuration> APP = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
    private static final LoopbackHttp HTTP = new LoopbackHttp();
    /** Requests on a thread of the application context now: none once every doGet has returned. */
    private static final String DISPATCHES = "io.dropwizard.jetty.MutableServletContextHandler.active-dispatches";
    private static final String ROOMS = token(Duration.ofMinutes(5), List.of("room-1", "lobby-*"));

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void withoutAValidTokenEveryPollIs401() {
        String forged = Tokens.hs256("another-secret-that-is-32-bytes-long", Tokens.claims("x", Duration.ofMinutes(5),
                List.of("*"), List.of()).build());
        String unsigned = new PlainJWT(Tokens.claims("x", Duration.ofMinutes(5), List.of("*"), List.of()).build()).serialize();
        String expired = token(Duration.ofMinutes(-5), List.of("*"));
        for (String authorization : List.of("", "Basic Zm9vOmJhcg==", "Bearer " + forged, "Bearer " + unsigned, "Bearer " + expired,
                "Bearer x.y.z")) {
            Answer answer = poll("?topic=room-1", authorization);
            assertThat(answer.status()).as(authorization).isEqualTo(401);
            assertThat(answer.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"events\"");
            assertThat(answer.json().get("code").asInt()).isEqualTo(401);
        }
    }

    @Test
    void aTopicTheTokenDoesNotListIs403AndRefusesTheWholePoll() {
        for (String query : List.of("?topic=room-10", "?topic=room-1&topic=room-2", "?topic=lobby-1&topic=lobb", "")) {
            Answer answer = poll(query, "Bearer " + ROOMS);
            assertThat(answer.status()).as(query).isEqualTo(403);
            assertThat(answer.json().get("message").asText()).isEqualTo("the token does not allow every topic asked");
            assertThat(answer.latencyMs()).as("answered at once, not parked").isLessThan(900);
        }
    }

    @Test
    void theTopicsItListsReachThePoll() throws Exception {
        assertThat(poll("?topic=room-1:0", "Bearer " + ROOMS).status()).as("timed out by the poll").isEqualTo(204);
        // Jetty counts a request finished a moment after its client has the answer: wait for that, so that the count
        // below is the parked poll's own and not the timed-out one's.
        Await.until(() -> APP.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 0,
                Duration.ofSeconds(5), "the timed-out poll finished");
        CompletableFuture<Answer> parked = HTTP.sendAsync(LoopbackHttp.request(
                LoopbackHttp.url(APP.getLocalPort(), "/minimal/events?topic=room-1&topic=lobby-42"))
                .header("Authorization", "bearer " + ROOMS).GET().build());
        Await.until(() -> APP.getEnvironment().metrics().counter(LiftOut.ACTIVE_REQUESTS).getCount() == 1
                && APP.getEnvironment().metrics().counter(DISPATCHES).getCount() == 0, Duration.ofSeconds(5), "the poll parked");
        APP.<App>getApplication().polls.publish("{\"to\":\"rooms\"}");
        Answer answer = parked.get(10, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().path("events").path(0).path("data").path("to").asText()).isEqualTo("rooms");
    }

    private static Answer poll(String query, String authorization) {
        var request = LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), "/minimal/events" + query)).GET();
        if (!authorization.isEmpty()) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build());
    }

    private static String token(Duration lifetime, List<String> subscribe) {
        return Tokens.hs256(Tokens.SECRET, Tokens.claims("reader", lifetime, subscribe, List.of()).build());
    }
}
