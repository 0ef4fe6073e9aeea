package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.RawHttpConnection;
import com.example.threading.testing.RawHttpConnection.Reply;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every kind of error, on the application and the admin connector, comes back as {@code {"code":N,"message":"…"}}
 * with {@code Content-Type: application/json}, the status HTTP prescribes, no stack trace and no Server header:
 * sent as raw bytes, because an HTTP client would refuse to send most of them.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JsonErrorsTest {

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"));

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String LONG_URL = "/work/blocking?ms=1&x=" + "a".repeat(100 * 1024);
    private static final String BIG_HEADER = "X-Big: " + "b".repeat(64 * 1024);

    static Stream<Arguments> badRequests() {
        return Stream.of(
                // Jetty's HTTP parser and URI checks, before any context: the server's error handler.
                Arguments.of("bad percent-encoding", "GET /%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("100 KB URL", "GET " + LONG_URL + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                Arguments.of("64 KB header", head("GET", "/work/blocking?ms=1", BIG_HEADER), 431),
                Arguments.of("2,000 headers", head("GET", "/work/blocking?ms=1", headerFlood(2_000)), 431),
                Arguments.of("HTTP/9.9", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505),
                Arguments.of("garbage request line", "HELLO\r\n\r\n", 400),
                Arguments.of("no Host", "GET /work/blocking?ms=1 HTTP/1.1\r\n\r\n", 400),
                Arguments.of("two Content-Lengths", "POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n{}", 400),
                Arguments.of("bad chunk size", "POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Transfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n", 400),
                // Inside a servlet context: the context's error handler, or the application's own answer.
                Arguments.of("no such path", head("GET", "/nope"), 404),
                Arguments.of("method Dropwizard refuses", head("TRACE", "/work/blocking"), 405),
                Arguments.of("method the resource lacks", head("DELETE", "/work/blocking"), 405),
                Arguments.of("HTML asked for", head("GET", "/nope", "Accept: text/html"), 404),
                Arguments.of("nothing acceptable", head("GET", "/nope", "Accept: image/png", "Accept-Charset: koi8-r"), 404),
                Arguments.of("fanout bound", head("GET", "/fanout?n=0"), 400),
                Arguments.of("fanout via", head("GET", "/fanout?via=nope&n=1001"), 400),
                Arguments.of("fanout not a number", head("GET", "/fanout?n=abc"), 400),
                Arguments.of("work ms", head("GET", "/work/cached?ms=-1"), 400),
                Arguments.of("events timeout", head("GET", "/events?timeout=0"), 400),
                Arguments.of("events media type", head("POST", "/events", "Content-Type: text/plain", "Content-Length: 2") + "{}", 415));
    }

    static Stream<Arguments> badAdminRequests() {
        return Stream.of(
                Arguments.of("bad percent-encoding", "GET /%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("100 KB URL", "GET /metrics?x=" + "a".repeat(100 * 1024) + " HTTP/1.1\r\nHost: x\r\n\r\n", 414),
                Arguments.of("64 KB header", head("GET", "/metrics", BIG_HEADER), 431),
                Arguments.of("HTTP/9.9", "GET /metrics HTTP/9.9\r\nHost: x\r\n\r\n", 505),
                Arguments.of("garbage request line", "HELLO\r\n\r\n", 400),
                Arguments.of("no such path", head("GET", "/nope"), 404),
                Arguments.of("method Dropwizard refuses", head("TRACE", "/metrics"), 405),
                Arguments.of("HTML asked for", head("GET", "/nope", "Accept: text/html"), 404),
                Arguments.of("task GET", head("GET", "/tasks/gc"), 405),
                Arguments.of("no such task", head("POST", "/tasks/nope", "Content-Length: 0"), 404));
    }

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @Test
    void aBadAuthorityIsA400AndNoWarning() throws IOException {
        assertJsonError(send(APP.getLocalPort(), head("CONNECT", "/work/blocking?ms=1")), 400);

        assertThat(log.atLeast(Level.WARN)).as("WARN/ERROR log lines").isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("badRequests")
    void applicationConnectorAnswersJson(String what, String request, int status) throws IOException {
        assertJsonError(send(APP.getLocalPort(), request), status);
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("badAdminRequests")
    void adminConnectorAnswersJson(String what, String request, int status) throws IOException {
        assertJsonError(send(APP.getAdminPort(), request), status);
    }

    static void assertJsonError(Reply reply, int status) throws IOException {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).as(reply.toString()).startsWith("application/json");
        assertThat(reply.header("Server")).as(reply.toString()).isNull();
        JsonNode body = JSON.readTree(reply.body());
        assertThat(body.path("code").asInt()).as(reply.body()).isEqualTo(status);
        assertThat(body.path("message").isTextual()).as(reply.body()).isTrue();
        assertThat(body.size()).as(reply.body()).isEqualTo(2);
        assertThat(reply.body()).doesNotContain("Exception", "\tat ", "jetty", "Jetty");
    }

    private static Reply send(int port, String request) {
        try (RawHttpConnection connection = RawHttpConnection.open(port)) {
            connection.send(request);
            return connection.readReply();
        }
    }

    private static String head(String method, String pathAndQuery, String... headers) {
        String[] withClose = Stream.concat(Stream.of(headers), Stream.of("Connection: close")).toArray(String[]::new);
        return RawHttpConnection.requestHead(method, pathAndQuery, withClose);
    }

    private static String headerFlood(int count) {
        StringBuilder headers = new StringBuilder();
        for (int i = 0; i < count; i++) {
            headers.append(i == 0 ? "" : "\r\n").append("X-H").append(i).append(": v");
        }
        return headers.toString();
    }

}
