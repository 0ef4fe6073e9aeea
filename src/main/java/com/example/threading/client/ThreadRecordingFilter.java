package com.example.threading.client;

import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.Response;

/**
 * Tells the fan-out run that sent a request which thread is sending it: the thread a client filter runs on is
 * the thread that makes the (blocking) HTTP call. A request of a run that has already been answered (fan-out
 * timeout) is aborted here instead of sent: nobody waits for it any more. Requests without the property are
 * left alone.
 */
final class ThreadRecordingFilter implements ClientRequestFilter {

    /** Request property holding the {@link FanoutRun} that records the thread. */
    static final String RUN_PROPERTY = ThreadRecordingFilter.class.getName() + ".run";

    @Override
    public void filter(ClientRequestContext request) {
        if (request.getProperty(RUN_PROPERTY) instanceof FanoutRun run && !run.recordThread(Thread.currentThread())) {
            request.abortWith(Response.status(Response.Status.SERVICE_UNAVAILABLE).build());
        }
    }
}
