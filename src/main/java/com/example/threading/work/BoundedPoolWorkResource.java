package com.example.threading.work;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;

/**
 * The request is resumed from a fixed-size pool behind a bounded queue. At most {@code threads} waits run
 * at once, {@code queueCapacity} more wait their turn, and the rest are refused at once with 503 and
 * {@code Retry-After}: the service degrades by saying no instead of by queueing without limit.
 */
@Path(WorkBundle.PATH + "/bounded")
@Produces(MediaType.APPLICATION_JSON)
public final class BoundedPoolWorkResource {

    private final AsyncWork asyncWork;

    BoundedPoolWorkResource(AsyncWork asyncWork) {
        this.asyncWork = asyncWork;
    }

    /** Suspends the request and waits {@code ms} (random 0..2000 when absent) on another thread. */
    @GET
    public void work(@QueryParam("ms") String ms, @Suspended AsyncResponse response) {
        asyncWork.start(response, WaitTime.parse(ms));
    }
}
