package com.example.threading.requestlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One event answering 400 parked polls logs a line per answer, on a request log whose queue holds 32 lines: every
 * request of the run is a line in the file or a count in {@value RequestLogBundle#DROPPED}, none is lost unseen.
 * (Dropwizard's asynchronous appender, which this writer replaces, also discards INFO lines without counting them once
 * its queue is four fifths full.) The run makes no other request of either port: metrics are read in-process.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class RequestLogBurstTest {

    private static final int POLLS = 400;
    private static final Path LOG = logFile();

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("events.tickPeriod", "0"),
            ConfigOverride.config("server.requestLog.appenders[0].type", "file"),
            ConfigOverride.config("server.requestLog.appenders[0].currentLogFilename", LOG.toString()),
            ConfigOverride.config("server.requestLog.appenders[0].archive", "false"),
            ConfigOverride.config("server.requestLog.appenders[0].queueSize", "32"));
    static final LoopbackHttp HTTP = new LoopbackHttp(HttpClient.Version.HTTP_1_1);

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void everyAnswerOfABatchIsALineOrACountedDrop() throws Exception {
        List<CompletableFuture<Answer>> polls = IntStream.range(0, POLLS)
                .mapToObj(i -> HTTP.getAsync(LoopbackHttp.url(APP.getLocalPort(), "/events?topic=logged&timeout=60"))).toList();
        Await.until(() -> gauge("events.parked") == POLLS, Duration.ofSeconds(60), POLLS + " polls parked");

        Answer published = HTTP.postJson(LoopbackHttp.url(APP.getLocalPort(), "/events?topic=logged"), "{\"burst\":1}");
        assertThat(published.status()).isEqualTo(200);
        CompletableFuture.allOf(polls.toArray(CompletableFuture[]::new)).get(40, TimeUnit.SECONDS);
        assertThat(polls).allSatisfy(poll -> assertThat(poll.join().status()).isEqualTo(200));

        int requests = POLLS + 1;
        Await.until(() -> lines().size() + gauge(RequestLogBundle.DROPPED), total -> total == requests, Duration.ofSeconds(20),
                "a line or a counted drop for each of the " + requests + " requests");
        assertThat(lines()).allSatisfy(line -> assertThat(line).matches(".*\"(GET|POST) /events HTTP/1.1\" 200 .*"));
    }

    private static long gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges().get(name).getValue()).longValue();
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
            Path folder = Files.createTempDirectory("request-log-burst");
            folder.toFile().deleteOnExit();
            return folder.resolve("requests.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
