package com.example.threading.longpoll;

import org.eclipse.jetty.util.component.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers every parked poll as soon as the server begins to stop. Jetty's graceful shutdown waits up to
 * {@code server.shutdownGracePeriod} for in-flight requests, and a parked poll is in flight until its timeout:
 * answered here (503, {@code Retry-After: 0}), the polls leave at once and shutdown is not held up. Runs in
 * {@code lifeCycleStopping}, before Jetty closes connectors, so every client gets a full response.
 *
 * <p>Thread-safety: called once by the thread that stops the server; the hub is thread-safe.
 */
final class StopAnsweringParkedPolls implements LifeCycle.Listener {

    private static final Logger LOG = LoggerFactory.getLogger(StopAnsweringParkedPolls.class);

    private final EventHub hub;
    private final long timeoutMs;

    StopAnsweringParkedPolls(EventHub hub, long timeoutMs) {
        this.hub = hub;
        this.timeoutMs = timeoutMs;
    }

    @Override
    public void lifeCycleStopping(LifeCycle event) {
        try {
            int answered = hub.close(timeoutMs);
            LOG.info("server stopping: answered {} parked polls with 503", answered);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
