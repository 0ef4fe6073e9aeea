package com.example.threading.work;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

/**
 * The anti-pattern: the request is resumed from a brand-new platform thread, one per request, never reused.
 * Each wave pays thread creation and start; a burst creates a burst of threads (and their stacks), up to
 * {@code work.threadPerRequest.maxThreads} alive at once (then 503), a cap that is only there so the demonstration
 * cannot be used to exhaust the JVM. Shown for comparison only: use a pool (cached, bounded) or virtual threads.
 */
@Path(WorkBundle.PATH + "/thread-per-request")
@Produces(MediaType.APPLICATION_JSON)
public final class ThreadPerRequestWorkResource {

    private final AsyncWork asyncWork;

    ThreadPerRequestWorkResource(AsyncWork asyncWork) {
        this.asyncWork = asyncWork;
    }

    /** Suspends the request and waits {@code ms} (random 0..2000 when absent) on another thread. */
    @GET
    public void work(@QueryParam("ms") String ms, @Suspended AsyncResponse response) {
        asyncWork.start(response, WaitTime.parse(ms));
    }
}
