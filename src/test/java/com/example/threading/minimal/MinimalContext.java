package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Every request's id (X-Request-Id: the client's when valid, else a new one, on the answer) kept in OpenTelemetry's
 * Context, an immutable snapshot, while the request runs; a pool wrapped once where it is built runs each task in the
 * context of the request that handed it over, and the thread's own context comes back after. GET /minimal/context
 * answers from the pool (4 managed threads, 16 queued, a 10 s timeout) with the id its thread saw.
 */
@Path("/minimal/context")
@Produces(MediaType.APPLICATION_JSON)
public final class MinimalContext implements Filter {
    static final String HEADER = "X-Request-Id";
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private static final ContextKey<String> REQUEST_ID = ContextKey.named("request.id");
    private final ExecutorService pool;

    private MinimalContext(ExecutorService pool) {
        this.pool = Context.taskWrapping(pool); // each task in the context of the thread that submitted it
    }

    /** The filter on every path, the resource, and the pool, stopped with the service. */
    public static void register(Environment environment) {
        MinimalContext minimal = new MinimalContext(environment.lifecycle().executorService("minimal-context-%d")
                .minThreads(4).maxThreads(4).workQueue(new ArrayBlockingQueue<>(16)).build());
        environment.servlets().addFilter("minimal-context", minimal)
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
        environment.jersey().register(minimal);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        String offered = ((HttpServletRequest) request).getHeader(HEADER);
        String id = offered != null && VALID.matcher(offered).matches() ? offered : UUID.randomUUID().toString();
        ((HttpServletResponse) response).setHeader(HEADER, id);
        try (Scope current = Context.current().with(REQUEST_ID, id).makeCurrent()) {
            chain.doFilter(request, response);
        }
    }

    /** Answers from a pool thread what the request's context says there; 503 when the pool's queue is full. */
    @GET
    public void fromThePool(@Suspended AsyncResponse response) {
        response.setTimeout(10, TimeUnit.SECONDS);
        try {
            pool.execute(() -> response.resume(Map.of("requestId", String.valueOf(Context.current().get(REQUEST_ID)),
                    "thread", Thread.currentThread().getName())));
        } catch (RejectedExecutionException full) {
            response.resume(Response.status(503).header(HttpHeaders.RETRY_AFTER, 1).build());
        }
    }
}
