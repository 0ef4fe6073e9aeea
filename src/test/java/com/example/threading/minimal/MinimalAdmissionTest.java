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
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link MinimalAdmission} (2 at once, 2 waiting for at most 2 s) in a bare Dropwizard application: of 8
 * four-second requests at once, 2 are served and 6 get 503 with Retry-After and the JSON body (4 at once, 2 after
 * their 2 s in the queue) without waiting for the work, while the admin port answers; afterwards the places are free.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MinimalAdmissionTest {

    /** A copier's application: the listing's one line, and an endpoint that blocks its thread. */
    public static final class App extends Application<Configuration> {
        private final MinimalAdmission admission = new MinimalAdmission(2, 2, Duration.ofMillis(2_000));

        @Override
        public void run(Configuration configuration, Environment environment) {
            admission.register(environment);
            environment.jersey().register(new Blocking());
        }
    }

    /** GET /blocking?ms=N: sleeps on the request's thread. */
    @Path("/blocking")
    public static final class Blocking {
        /** Sleeps {@code ms} on the request's thread. */
        @GET
        public String block(@QueryParam("ms") int ms) throws InterruptedException {
            Thread.sleep(ms);
            return "ok";
        }
    }

    private static final DropwizardAppExtension<Configuration> APP = new DropwizardAppExtension<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void twoServedSixRefusedFastAndTheAdminPortApart() {
        CompletableFuture<List<Answer>> burst = CompletableFuture.supplyAsync(
                () -> HTTP.getAll(LoopbackHttp.url(APP.getLocalPort(), "/blocking?ms=4000"), 8));
        MinimalAdmission admission = APP.<App>getApplication().admission;
        Await.until(() -> admission.getSuspendedRequestCount() == 2, Duration.ofSeconds(10), "two requests waiting");
        Answer ping = HTTP.get(LoopbackHttp.url(APP.getAdminPort(), "/ping"));
        List<Answer> answers = burst.join();

        assertThat(ping.status()).as("admin port during the burst").isEqualTo(200);
        assertThat(answers.stream().filter(answer -> answer.status() == 200)).hasSize(2);
        List<Answer> refused = answers.stream().filter(answer -> answer.status() == 503).toList();
        assertThat(refused).hasSize(6).allSatisfy(answer -> {
            assertThat(answer.header("Retry-After")).isEqualTo("1");
            assertThat(answer.header("Content-Type")).isEqualTo("application/json");
            assertThat(answer.json().get("code").asInt()).isEqualTo(503);
        });
        assertThat(HTTP.getAll(LoopbackHttp.url(APP.getLocalPort(), "/blocking?ms=0"), 2))
                .as("places free again").extracting(Answer::status).containsOnly(200);
    }
}
