package com.example.threading.testing;

import io.dropwizard.core.setup.Environment;
import org.eclipse.jetty.server.handler.GracefulHandler;

/**
 * The requests Jetty itself counts as in flight on every connector of a running service: its {@code GracefulHandler},
 * which a graceful stop waits for. Jetty runs a request's {@code AsyncListener.onComplete} before it stops counting
 * the request, so a count of 0 also means every earlier request's completion listeners have run.
 *
 * <p>Thread-safety: stateless; the count may be read from any thread.
 */
public final class JettyInFlight {

    private JettyInFlight() {
    }

    /** Requests in flight on the server of {@code environment}; {@link AssertionError} if it has no {@code GracefulHandler}. */
    public static long count(Environment environment) {
        GracefulHandler graceful = environment.getApplicationContext().getServer().getDescendant(GracefulHandler.class);
        if (graceful == null) {
            throw new AssertionError("the server has no GracefulHandler to count its requests in flight");
        }
        return graceful.getCurrentRequestCount();
    }
}
