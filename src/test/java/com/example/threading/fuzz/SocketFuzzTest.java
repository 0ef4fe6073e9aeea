package com.example.threading.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.TestSocket;
import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.eclipse.jetty.websocket.client.WebSocketClient;

/**
 * The fuzz on {@code GET /events/ws}'s messages, on the real service ({@link FuzzedService}): batches of generated
 * client messages (well-formed kinds with hostile values, hostile text, wrong types, unknown kinds), each on a fresh
 * socket. Every message gets exactly one answer, an {@code ack}, a {@code subscribed} or an {@code error} with a code
 * {@code POST /events} could answer and a message; the socket stays open and still answers a valid message after the
 * batch; afterwards nothing is parked or open and a normal request is answered at once. Seeds as {@link FuzzSeeds}.
 */
@AddLifecycleHook(FuzzSeeds.class)
class SocketFuzzTest {

    private static final FuzzedService SERVICE = new FuzzedService();
    private static final WebSocketClient CLIENT = new WebSocketClient();
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final Set<Integer> CODES = Set.of(400, 401, 403, 413, 429, 503);
    private static final List<String> HOSTILE = List.of("", " ", "null", "true", "[]", "{}", "\"\"", "1e999", "-1",
            "\"\\u0000\"", "\"😀\"", "\"a b\"", "\"a:b:c:d\"", "\"a:-1\"", "\"a:1:bad epoch\"", "\"" + "t".repeat(65) + "\"",
            "\"../x\"", "\"%00\"", "9223372036854775808", "{\"$ref\":1}", "[\"a\",\"a\"]", "[1,2]", "[null]",
            "[" + "\"t\",".repeat(40) + "\"t\"]", "\"" + "x".repeat(70) + "\"");

    @BeforeContainer
    static void start() throws Exception {
        SERVICE.start();
        CLIENT.start();
    }

    @AfterContainer
    static void quietAfterwards() throws Exception {
        CLIENT.stop();
        try {
            SERVICE.assertQuietAndResponsive(Duration.ofSeconds(30));
        } finally {
            SERVICE.stop();
        }
    }

    @Property
    void everyMessageGetsOneAnswerAndTheSocketGoesOn(@ForAll("batches") List<String> batch) throws Exception {
        try (TestSocket socket = TestSocket.open(CLIENT, URI.create("ws://127.0.0.1:" + SERVICE.port() + "/events/ws?topic=fuzz-ws"),
                Map.of("Authorization", "Bearer " + FuzzInputs.TOKEN), BOUND)) {
            List<String> broken = new ArrayList<>();
            for (String message : batch) {
                socket.send(message);
                JsonNode answer = answer(socket);
                Statistics.label("answer").collect(answer.path("type").asText() + " " + answer.path("code").asText(""));
                String type = answer.path("type").asText();
                boolean allowed = type.equals("ack") || type.equals("subscribed")
                        || type.equals("error") && CODES.contains(answer.path("code").asInt()) && !answer.path("message").asText().isBlank();
                if (!allowed) {
                    broken.add("sent " + message + "\n  answered " + answer);
                }
            }
            socket.send("{\"subscribe\":[\"fuzz-ws\"],\"ref\":\"last\"}");
            JsonNode last = answer(socket);
            assertThat(broken).isEmpty();
            assertThat(last.path("type").asText()).as("the socket still answers after the batch: %s", last).isEqualTo("subscribed");
        }
    }

    /** The next answer to a message: events (of a topic the batch subscribed to, or published on) are not answers. */
    private static JsonNode answer(TestSocket socket) throws InterruptedException {
        while (true) {
            JsonNode message = socket.next(BOUND);
            String type = message.path("type").asText();
            if (!type.equals("event") && !type.equals("missed")) {
                return message;
            }
        }
    }

    @Provide
    Arbitrary<List<String>> batches() {
        return message().list().ofMinSize(1).ofMaxSize(12);
    }

    private static Arbitrary<String> message() {
        Arbitrary<String> value = Arbitraries.oneOf(Arbitraries.of(HOSTILE), Arbitraries.of("\"fuzz-ws\"", "\"other\"",
                "\"fuzz-ws:0\"", "\"fuzz-ws:3:E1\"", "[\"fuzz-ws\"]", "[\"other\",\"fuzz-ws:1\"]", "{\"n\":1}"));
        Arbitrary<String> ref = Arbitraries.oneOf(Arbitraries.just(""), Arbitraries.of(HOSTILE).map(v -> ",\"ref\":" + v),
                Arbitraries.integers().between(-5, 5).map(n -> ",\"ref\":" + n));
        Arbitrary<String> kind = Arbitraries.of("publish", "subscribe", "unsubscribe", "Publish", "", "ref", "x");
        Arbitrary<String> publish = Combinators.combine(value, value, ref)
                .as((topic, data, reference) -> "{\"publish\":{\"topic\":" + orNull(topic) + ",\"data\":" + orNull(data) + "}"
                        + reference + "}");
        Arbitrary<String> anyKind = Combinators.combine(kind, value, ref)
                .as((name, body, reference) -> "{\"" + name + "\":" + orNull(body) + reference + "}");
        Arbitrary<String> topics = Arbitraries.of("fuzz-ws", "other", "fuzz-ws:0", "other:2:E1", "third", "x".repeat(64))
                .list().ofMinSize(1).ofMaxSize(4).uniqueElements().map(list -> "[\"" + String.join("\",\"", list) + "\"]");
        Arbitrary<String> change = Combinators.combine(Arbitraries.of("subscribe", "unsubscribe"), topics, ref)
                .as((name, list, reference) -> "{\"" + name + "\":" + list + reference + "}");
        Arbitrary<String> raw = Arbitraries.oneOf(Arbitraries.of(HOSTILE), Arbitraries.strings().ofMaxLength(40))
                .filter(text -> !text.isEmpty());
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, publish),
                net.jqwik.api.Tuple.of(4, anyKind),
                net.jqwik.api.Tuple.of(3, change),
                net.jqwik.api.Tuple.of(2, raw));
    }

    private static String orNull(String value) {
        return value.isBlank() ? "null" : value;
    }
}
