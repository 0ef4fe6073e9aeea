package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.events.access.jwt.Tokens;
import com.example.threading.testing.TestSocket;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.eclipse.jetty.websocket.api.StatusCode;
import org.eclipse.jetty.websocket.api.exceptions.UpgradeException;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code GET /events/ws} under {@code events.auth.type: jwt}: the token's subscribe claims decide the upgrade and every
 * subscribe message, its publish claims every publish message; a token in the query (for browsers) subscribes but
 * does not publish, as on {@code POST /events}; the socket closes with 1008 when the token expires.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JwtWebSocketTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("events.auth.type", "jwt"),
            ConfigOverride.config("events.auth.jwt.secret", Tokens.SECRET),
            ConfigOverride.config("events.auth.jwt.clockSkew", "0s"),
            ConfigOverride.config("events.auth.jwt.queryToken", "true"));
    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final WebSocketClient CLIENT = new WebSocketClient();

    @BeforeAll
    static void startClient() throws Exception {
        CLIENT.start();
    }

    @AfterAll
    static void stopClient() throws Exception {
        CLIENT.stop();
    }

    @Test
    void theTokensClaimsDecideTheUpgradeEverySubscribeAndEveryPublish() throws Exception {
        String alice = token(Duration.ofMinutes(10), List.of("room-1", "lobby-*"), List.of("room-1"));
        assertThat(status("/events/ws?topic=room-1", Map.of())).as("no token").isEqualTo(401);
        assertThat(status("/events/ws?topic=vault", bearer(alice))).as("a topic it may not read").isEqualTo(403);

        try (TestSocket socket = TestSocket.open(CLIENT, uri("/events/ws?topic=room-1"), bearer(alice), BOUND)) {
            socket.send("{\"subscribe\":[\"vault\"],\"ref\":1}");
            JsonNode refused = socket.next(BOUND);
            assertThat(refused.path("code").asInt()).isEqualTo(403);
            socket.send("{\"subscribe\":[\"lobby-2\"],\"ref\":2}");
            assertThat(socket.next(BOUND).path("type").asText()).isEqualTo("subscribed");

            socket.send("{\"publish\":{\"topic\":\"lobby-2\",\"data\":1},\"ref\":3}");
            JsonNode notAllowed = socket.next(BOUND);
            assertThat(notAllowed.path("code").asInt()).as("no publish claim for lobby-2").isEqualTo(403);
            socket.send("{\"publish\":{\"topic\":\"room-1\",\"data\":1},\"ref\":4}");
            List<JsonNode> both = List.of(socket.next(BOUND), socket.next(BOUND));
            assertThat(both).anySatisfy(message -> assertThat(message.path("type").asText()).isEqualTo("ack"));
            assertThat(both).anySatisfy(message -> assertThat(message.path("type").asText()).isEqualTo("event"));
        }
    }

    @Test
    void aTokenInTheQuerySubscribesButDoesNotPublish() throws Exception {
        String alice = token(Duration.ofMinutes(10), List.of("room-1"), List.of("room-1"));
        try (TestSocket socket = TestSocket.open(CLIENT, uri("/events/ws?topic=room-1&access_token=" + alice), Map.of(), BOUND)) {
            socket.send("{\"publish\":{\"topic\":\"room-1\",\"data\":1}}");
            JsonNode refused = socket.next(BOUND);
            assertThat(refused.path("type").asText()).isEqualTo("error");
            assertThat(refused.path("code").asInt()).isBetween(400, 401);
        }
    }

    @Test
    void theSocketClosesWith1008WhenItsTokenExpires() throws Exception {
        String shortLived = token(Duration.ofSeconds(2), List.of("room-1"), List.of());
        try (TestSocket socket = TestSocket.open(CLIENT, uri("/events/ws?topic=room-1"), bearer(shortLived), BOUND)) {
            JsonNode expired = socket.next(BOUND);
            assertThat(expired.path("type").asText()).isEqualTo("expired");
            assertThat(socket.closeCode(BOUND)).isEqualTo(StatusCode.POLICY_VIOLATION);
        }
        assertThat(APP.getEnvironment().metrics().meter("events.websocket.expired-ends").getCount()).isEqualTo(1);
    }

    private static int status(String pathAndQuery, Map<String, String> headers) throws Exception {
        try {
            TestSocket.open(CLIENT, uri(pathAndQuery), headers, BOUND).close();
            return 101;
        } catch (ExecutionException e) {
            return ((UpgradeException) e.getCause()).getResponseStatusCode();
        }
    }

    private static Map<String, String> bearer(String token) {
        return Map.of("Authorization", "Bearer " + token);
    }

    private static String token(Duration lifetime, List<String> subscribe, List<String> publish) {
        return Tokens.hs256(Tokens.SECRET, Tokens.claims("alice", lifetime, subscribe, publish).build());
    }

    private static URI uri(String pathAndQuery) {
        return URI.create("ws://127.0.0.1:" + APP.getLocalPort() + pathAndQuery);
    }
}
