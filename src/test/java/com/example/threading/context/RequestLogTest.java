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
 * the request id its answer carried, the path without its query (which may carry a token).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RequestLogTest {

    private static final Path LOG = logFile();

    private static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("events.tickPeriod", "0s"),
            ConfigOverride.config("server.requestLog.appenders[0].type", "file"),
            ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename", LOG.toString()),
            ConfigOverride.config("server.requestLog.appenders[0].archive", "false"));

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

    private static List<String> lines() {
        try {
            return Files.exists(LOG) ? Files.readAllLines(LOG) : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path logFile() {
        try {
            Path folder = Files.createTempDirectory("request-log");
            folder.toFile().deleteOnExit();
            return folder.resolve("requests.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
