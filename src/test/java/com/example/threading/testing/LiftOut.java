package com.example.threading.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Counter;
import io.dropwizard.core.setup.Environment;
import java.time.Duration;

/**
 * What every lift-out test (a bare Dropwizard application with one pattern's bundle, {@code liftout.yml}) checks of a
 * pattern that suspends requests: a client that resets its connection while its answer is on the way leaves nothing
 * in flight.
 *
 * <p>Thread-safety: for the test thread only.
 */
public final class LiftOut {

    /** The minimal configuration of the lift-out applications, on the test class path. */
    public static final String CONFIG = "liftout.yml";

    /** Dropwizard's count of requests in the application context. */
    public static final String ACTIVE_REQUESTS = "io.dropwizard.jetty.MutableServletContextHandler.active-requests";

    private LiftOut() {
    }

    /**
     * Sends {@code GET pathAndQuery} three times, each time resetting the connection {@code resetAfterMs} into the
     * answer's wait, then waits for the application to have nothing in flight.
     */
    public static void resetsLeaveNothingInFlight(Environment environment, int port, String pathAndQuery, long resetAfterMs)
            throws InterruptedException {
        Counter inFlight = environment.metrics().counter(ACTIVE_REQUESTS);
        for (int i = 0; i < 3; i++) {
            try (RawHttpConnection connection = RawHttpConnection.open(port)) {
                connection.send(RawHttpConnection.requestHead("GET", pathAndQuery));
                Thread.sleep(resetAfterMs);
                connection.reset();
            }
        }
        Await.until(() -> inFlight.getCount() == 0, Duration.ofSeconds(30), "no request in flight after 3 resets of " + pathAndQuery);
        assertThat(inFlight.getCount()).isZero();
    }
}
