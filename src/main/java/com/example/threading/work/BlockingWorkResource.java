package com.example.threading.work;

import io.dropwizard.jersey.params.IntParam;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The request waits on the Jetty worker thread that took it. Simple and fine while concurrent waits stay
 * well below {@code server.maxThreads}; past that, new requests queue in Jetty's unbounded job queue.
 */
@Path("/work/blocking")
@Produces(MediaType.APPLICATION_JSON)
public final class BlockingWorkResource {

    /** Waits {@code ms} (random 0..2000 when absent) on the calling Jetty thread. */
    @GET
    public WorkResult work(@QueryParam("ms") @Min(0) @Max(WaitTime.MAX_MS) IntParam ms) {
        return SimulatedWork.waitFor("blocking", WaitTime.resolve(ms));
    }
}
