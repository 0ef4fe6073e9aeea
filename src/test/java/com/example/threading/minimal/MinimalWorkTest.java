package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MinimalWork} in a bare Dropwizard application (2 threads, 2 queued, a 10 s timeout), a fresh one per test: it
 * answers from its pool, refuses beyond its places with 503 and Retry-After, and answers 503 at the timeout, after
 * which its threads and places are free again. No assertion on how long anything took.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MinimalWorkTest {

    /** A copier's application: the listing's one line. */
    public static final class App extends Application<Configuration> {
        @Override
        public void run(Configuration configuration, Environment environment) {
            environment.jersey().register(MinimalWork.of(environment, 2, 2, Duration.ofSeconds(10)));
        }
    }

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    private final DropwizardAppExtension<Configuration> app = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aWaitIsAnsweredFromThePool() {
        Answer answer = HTTP.get(url("/minimal/work?ms=100"));

        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        assertThat(answer.json().get("waitedMs").asInt()).isEqualTo(100);
        assertThat(answer.json().get("thread").asText()).startsWith("minimal-work-");
    }

    @Test
    void fiveLongWaitsAtOnceGetOneRefusalAndFourTimeoutsThenThePlacesComeBack() {
        // No place comes back before the timeout, so whatever the order they arrive in, four take the places and one
        // is refused at once.
        List<Answer> answers = HTTP.getAll(url("/minimal/work?ms=60000"), 5);

        List<Answer> refused = answers.stream()
                .filter(answer -> answer.json().get("message").asText().equals("all places taken")).toList();
        List<Answer> late = answers.stream()
                .filter(answer -> answer.json().get("message").asText().equals("no answer within 10000 ms")).toList();
        assertThat(refused).as("refused").hasSize(1);
        assertThat(late).as("timed out").hasSize(4);
        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.header("Retry-After")).isEqualTo("1");
            assertThat(answer.json().get("code").asInt()).isEqualTo(503);
        });
        // The sleeps were interrupted: both threads and all four places serve again long before the 60 s are up.
        Await.until(() -> HTTP.getAll(url("/minimal/work?ms=10"), 4).stream().allMatch(answer -> answer.status() == 200),
                Duration.ofSeconds(20), "four places and both threads free again");
    }

    @Test
    void aWaitOutOfRangeIs400() {
        assertThat(HTTP.get(url("/minimal/work?ms=60001")).status()).isEqualTo(400);
    }

    private String url(String pathAndQuery) {
        return LoopbackHttp.url(app.getLocalPort(), pathAndQuery);
    }
}
