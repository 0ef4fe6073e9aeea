package com.example.threading.work;

import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * The request is resumed from a new virtual thread per task (JDK 21+): waits are cheap, so there is no pool
 * to size, but nothing bounds how many run either. On JDK 17 the service starts anyway and this endpoint
 * answers 501 with an explanation.
 */
@Path(WorkBundle.PATH + "/virtual")
@Produces(MediaType.APPLICATION_JSON)
public final class VirtualThreadWorkResource {

    private final Optional<AsyncWork> asyncWork;

    VirtualThreadWorkResource(Optional<AsyncWork> asyncWork) {
        this.asyncWork = asyncWork;
    }

    /** Suspends the request and waits {@code ms} (random 0..2000 when absent) on a virtual thread, or answers 501 on JDK 17-20. */
    @GET
    public void work(@QueryParam("ms") String ms, @Suspended AsyncResponse response) {
        int waitMs = WaitTime.parse(ms);
        asyncWork.ifPresentOrElse(work -> work.start(response, waitMs), () -> response.resume(notImplemented()));
    }

    private static Response notImplemented() {
        String message = VirtualThreads.missing().orElse("no virtual-thread executor");
        return Response.status(Response.Status.NOT_IMPLEMENTED)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorMessage(Response.Status.NOT_IMPLEMENTED.getStatusCode(), message))
                .build();
    }
}
