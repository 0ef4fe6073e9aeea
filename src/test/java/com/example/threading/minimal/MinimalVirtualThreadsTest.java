package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalVirtualThreads} (at most 4 at once) in a bare Dropwizard application whose platform pool is far
 * larger: on JDK 21+ every request runs on a virtual thread, and 8 one-second requests at once take two rounds (the
 * bound is the listing's); below JDK 21 the application refuses to start.
 */
class MinimalVirtualThreadsTest {

    /** A copier's application: the listing's one line, and an endpoint that blocks its thread. */
    public static final class App extends Application<Configuration> {
        @Override
        public void run(Configuration configuration, Environment environment) {
            new MinimalVirtualThreads(4).register(environment);
            environment.jersey().register(new Blocking());
        }
    }

    /** GET /blocking?ms=N: sleeps on the request's thread, answers that thread. */
    @Path("/blocking")
    public static final class Blocking {
        /** Sleeps {@code ms} on the request's thread and names it. */
        @GET
        public String block(@QueryParam("ms") int ms) throws InterruptedException {
            Thread.sleep(ms);
            return Thread.currentThread().toString();
        }
    }

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    private final DropwizardTestSupport<Configuration> app = new DropwizardTestSupport<>(App.class,
            ResourceHelpers.resourceFilePath(LiftOut.CONFIG));

    @AfterEach
    void stop() {
        app.after();
    }

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void eightOneSecondRequestsRunOnVirtualThreadsFourAtATime() throws Exception {
        if (Runtime.version().feature() < 21) {
            assertThatThrownBy(app::before).hasStackTraceContaining("virtual threads need JDK 21+");
            return;
        }
        app.before();

        List<Answer> answers = HTTP.getAll(LoopbackHttp.url(app.getLocalPort(), "/blocking?ms=1000"), 8);

        assertThat(answers).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).startsWith("VirtualThread[").contains("minimal-virtual-");
        });
        assertThat(answers.stream().mapToLong(Answer::latencyMs).max().orElseThrow())
                .as("the slowest of 8 with 4 at once: two rounds").isGreaterThanOrEqualTo(2_000);
    }
}
