package com.example.threading.work;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The request waits on the Jetty worker thread that took it. Simple and fine while concurrent waits stay
 * well below {@code server.maxThreads}; past that, new requests queue in Jetty's unbounded job queue.
 */
@Path(WorkBundle.PATH + "/blocking")
@Produces(MediaType.APPLICATION_JSON)
public final class BlockingWorkResource {

    /** Waits {@code ms} (random 0..2000 when absent) on the calling Jetty thread. */
    @GET
    public WorkResult work(@QueryParam("ms") String ms) {
        return SimulatedWork.waitFor("blocking", WaitTime.parse(ms));
    }
}
