package com.example.threading.context;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The request log as config.yml writes it, here into a file: one line per request with its status, its duration and
 * the request id its answer carried, the path without its query (which may carry a token). And the application's log
 * in config.yml's format, into a file too: a line written on a pool thread for a request ends with that request's ids.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RequestLogTest {

    private static final Path LOG = logFile("requests.log");
    private static final Path APPLICATION_LOG = logFile("application.log");

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("server.requestLog.appenders[0].type", "file"),
            ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename", LOG.toString()),
            ConfigOverride.config("server.requestLog.appenders[0].archive", "false"),
            ConfigOverride.config("logging.appenders[0].type", "file"),
            ConfigOverride.config("logging.appenders[0].currentLogFilename", APPLICATION_LOG.toString()),
            ConfigOverride.config("logging.appenders[0].archive", "false"),
            // SimulatedWork logs each wait at DEBUG, on the pattern's pool thread.
            ConfigOverride.config("logging.loggers.com\\.example\\.threading\\.work\\.SimulatedWork", "DEBUG"));

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aRequestsLineHasItsIdStatusAndDurationAndNoQuery() {
        HTTP.send(LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), "/work/blocking?ms=20&access_token=secret"))
                .header("X-Request-Id", "logged-1").build());
        HTTP.send(LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), "/no-such-path")).header("X-Request-Id", "logged-2")
                .build());

        Await.until(() -> lines().stream().anyMatch(line -> line.contains("request_id=logged-2")), Duration.ofSeconds(20),
                "the second request's line");
        String first = lines().stream().filter(line -> line.contains("request_id=logged-1")).findFirst().orElseThrow();
        assertThat(first).contains("\"GET /work/blocking HTTP/1.1\" 200 ").matches(".* \\d+ ms request_id=logged-1$")
                .doesNotContain("secret").doesNotContain("access_token");
        assertThat(lines()).anySatisfy(line -> assertThat(line).contains("\"GET /no-such-path HTTP/1.1\" 404 ")
                .endsWith("request_id=logged-2"));
    }

    @Test
    void anApplicationLineOnAPoolThreadEndsWithItsRequestsIdsAndALineOfNoRequestWithItsMessage() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        HTTP.send(LoopbackHttp.request(LoopbackHttp.url(APP.getLocalPort(), "/work/cached?ms=1")).header("X-Request-Id", "logged-3")
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01").build());

        Await.until(() -> lines(APPLICATION_LOG).stream().anyMatch(line -> line.contains("request_id=logged-3")), Duration.ofSeconds(20),
                "the pool thread's line of the request");
        String waited = lines(APPLICATION_LOG).stream().filter(line -> line.contains("request_id=logged-3")).findFirst().orElseThrow();
        assertThat(waited).startsWith("DEBUG ").contains("SimulatedWork: cached: waited ").contains(" on work-cached-")
                .contains("trace_id=" + traceId).containsPattern("span_id=[0-9a-f]{16}").endsWith("]");
        assertThat(lines(APPLICATION_LOG)).as("a line of the start, written in no request").anySatisfy(line ->
                assertThat(line).startsWith("INFO ").contains("Started").doesNotContain("request_id"));
        assertThat(lines(APPLICATION_LOG)).as("no line of no request ends with an empty MDC").noneMatch(line -> line.endsWith(" []"));
    }

    private static List<String> lines() {
        return lines(LOG);
    }

    private static List<String> lines(Path log) {
        try {
            return Files.exists(log) ? Files.readAllLines(log) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path logFile(String name) {
        try {
            Path folder = Files.createTempDirectory("request-log");
            folder.toFile().deleteOnExit();
            return folder.resolve(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
