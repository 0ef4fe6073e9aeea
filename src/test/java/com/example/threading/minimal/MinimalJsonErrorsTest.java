package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.RawHttpConnection;
import com.example.threading.testing.RawHttpConnection.Reply;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link MinimalJsonErrors} in a bare Dropwizard application: what Jetty's parser refuses, what a servlet context
 * refuses and an uncaught exception are all {@code {"code":N,"message":"…"}} JSON, on both ports, for every method,
 * with nothing of the exception in a 500.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MinimalJsonErrorsTest {

    /** A copier's application: the listing's one line, and a servlet that fails. */
    public static final class App extends Application<Configuration> {
        @Override
        public void run(Configuration configuration, Environment environment) {
            MinimalJsonErrors.register(environment);
            environment.servlets().addServlet("fails", new Fails()).addMapping("/fails");
        }
    }

    /** GET /fails throws: an uncaught exception in a servlet. */
    public static final class Fails extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) {
            throw new IllegalStateException("a detail no client should see");
        }
    }

    private static final DropwizardAppExtension<Configuration> APP = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> badRequests() {
        return Stream.of(
                Arguments.of("application", "GET /%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("application", "GET / HTTP/9.9\r\nHost: x\r\n\r\n", 505),
                Arguments.of("application", head("TRACE", "/fails"), 405),
                Arguments.of("application", head("DELETE", "/fails"), 405),
                Arguments.of("application", head("GET", "/fails", "Accept: text/html"), 500),
                Arguments.of("admin", "GET /%ZZ HTTP/1.1\r\nHost: x\r\n\r\n", 400),
                Arguments.of("admin", head("GET", "/nothing-here"), 404),
                Arguments.of("admin", head("TRACE", "/ping"), 405));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("badRequests")
    void everyErrorIsTheOneJsonBody(String port, String request, int status) throws IOException {
        Reply reply;
        try (RawHttpConnection connection = RawHttpConnection.open(port.equals("admin") ? APP.getAdminPort() : APP.getLocalPort())) {
            reply = connection.send(request).readReply();
        }

        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.header("Content-Type")).as(reply.toString()).startsWith("application/json");
        JsonNode body = JSON.readTree(reply.body());
        assertThat(body.path("code").asInt()).as(reply.body()).isEqualTo(status);
        assertThat(body.path("message").isTextual()).as(reply.body()).isTrue();
        assertThat(body.size()).as(reply.body()).isEqualTo(2);
        assertThat(reply.body()).doesNotContain("Exception", "detail", "\tat ");
    }

    private static String head(String method, String path, String... headers) {
        return RawHttpConnection.requestHead(method, path,
                Stream.concat(Stream.of(headers), Stream.of("Connection: close")).toArray(String[]::new));
    }
}
