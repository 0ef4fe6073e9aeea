package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.example.threading.testing.CapturedLog;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real server fault (an exception no one handled, in a Jersey resource or a servlet) is a 500 with the one JSON
 * body and nothing of the exception in it, and is still logged as an ERROR with its stack trace. A bare
 * Dropwizard application with {@link JsonErrorsBundle} and two endpoints that throw.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class UncaughtFaultsTest {

    private static final String SECRET = "secret-internal-detail";

    private static final DropwizardAppExtension<Configuration> APP = new DropwizardAppExtension<>(
            FaultsApplication.class, ResourceHelpers.resourceFilePath("errors/faults.yml"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @RegisterExtension
    final CapturedLog log = new CapturedLog();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void jerseyResourceFaultIsA500WithTheOneBodyAndAnErrorLogLine() {
        Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/fault"));

        assertServerError(answer);
        assertThat(errorsWithStackTrace()).as("ERROR log lines with a stack trace").isNotEmpty();
    }

    @Test
    void servletFaultIsA500WithTheOneBodyAndAnErrorLogLine() {
        Answer answer = HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/servlet-fault"));

        assertServerError(answer);
        assertThat(answer.json().path("message").asText()).isEqualTo("Server Error");
        assertThat(errorsWithStackTrace()).as("ERROR/WARN log lines with a stack trace").isNotEmpty();
    }

    private static void assertServerError(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(500);
        assertThat(answer.header("Content-Type")).startsWith("application/json");
        JsonNode body = answer.json();
        assertThat(body.path("code").asInt()).isEqualTo(500);
        assertThat(body.path("message").isTextual()).isTrue();
        assertThat(answer.body()).doesNotContain(SECRET, "Exception", "\tat ");
    }

    private List<ILoggingEvent> errorsWithStackTrace() {
        return log.events().stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN) && event.getThrowableProxy() != null)
                .filter(event -> event.getThrowableProxy().getMessage() != null
                        && event.getThrowableProxy().getMessage().contains(SECRET))
                .toList();
    }

    /** Dropwizard with the service's error handling and two endpoints that fail. */
    public static final class FaultsApplication extends Application<Configuration> {
        @Override
        public void initialize(Bootstrap<Configuration> bootstrap) {
            bootstrap.addBundle(new JsonErrorsBundle());
        }

        @Override
        public void run(Configuration configuration, Environment environment) {
            environment.jersey().register(new FaultyResource());
            environment.servlets().addServlet("servlet-fault", new FaultyServlet()).addMapping("/servlet-fault");
        }
    }

    /** A Jersey resource whose method throws. */
    @Path("/fault")
    public static final class FaultyResource {
        /** Always throws. */
        @GET
        public String fail() {
            throw new IllegalStateException(SECRET);
        }
    }

    /** A servlet that throws. */
    public static final class FaultyServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) {
            throw new IllegalStateException(SECRET);
        }
    }
}
