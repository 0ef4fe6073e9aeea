package com.example.threading.work;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

/**
 * The request is resumed from a managed cached pool: idle threads are reused, new ones are created on
 * demand, so a burst of slow calls never waits for a thread. The price is an (almost) unbounded thread
 * count under load: {@code work.cachedPool.maxThreads} is only a safety cap, beyond which requests get 503.
 */
@Path(WorkBundle.PATH + "/cached")
@Produces(MediaType.APPLICATION_JSON)
public final class CachedPoolWorkResource {

    private final AsyncWork asyncWork;

    CachedPoolWorkResource(AsyncWork asyncWork) {
        this.asyncWork = asyncWork;
    }

    /** Suspends the request and waits {@code ms} (random 0..2000 when absent) on another thread. */
    @GET
    public void work(@QueryParam("ms") String ms, @Suspended AsyncResponse response) {
        asyncWork.start(response, WaitTime.parse(ms));
    }
}
