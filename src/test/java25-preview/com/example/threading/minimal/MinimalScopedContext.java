package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.MDC;

/**
 * Every request's id (X-Request-Id: the client's when valid, else a new one, on the answer) bound to a ScopedValue
 * (JEP 506, final in JDK 25) for the request's extent: a handler in front of the servlets binds it around the rest,
 * and the binding ends when they return, so a reused thread never sees the last request's id. The subtasks of a
 * StructuredTaskScope opened inside the extent inherit it; a pool's thread does not, so a task handed to a pool
 * carries the value and binds it again there, with the MDC for its log lines (the logging edge).
 * GET /minimal/scoped answers what two forks, a carried task and an uncarried one saw.
 */
@Path("/minimal/scoped")
@Produces(MediaType.APPLICATION_JSON)
public final class MinimalScopedContext {
    static final String HEADER = "X-Request-Id";
    static final ScopedValue<String> REQUEST_ID = ScopedValue.newInstance();
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    private final ExecutorService pool;

    private MinimalScopedContext(ExecutorService pool) {
        this.pool = pool;
    }

    /** The handler in front of the servlets, the resource, and a pool of 2 threads, stopped with the service. */
    public static void register(Environment environment) {
        environment.getApplicationContext().insertHandler(new Handler.Wrapper() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String offered = request.getHeaders().get(HEADER);
                String id = offered != null && VALID.matcher(offered).matches() ? offered : UUID.randomUUID().toString();
                response.getHeaders().put(HEADER, id);
                return ScopedValue.where(REQUEST_ID, id).call(() -> super.handle(request, response, callback));
            }
        });
        environment.jersey().register(new MinimalScopedContext(environment.lifecycle().executorService("minimal-scoped-%d")
                .minThreads(2).maxThreads(2).workQueue(new ArrayBlockingQueue<>(256)).build()));
    }

    /** What two forks, a task carried to the pool and one not carried saw of the request's id. */
    @GET
    public Map<String, Object> seen() throws Exception {
        try (var scope = StructuredTaskScope.open()) { // forks inherit the binding and end before close() returns
            Subtask<String> first = scope.fork(REQUEST_ID::get);
            Subtask<String> second = scope.fork(REQUEST_ID::get);
            scope.join();
            var carried = pool.submit(carry(() -> List.of(REQUEST_ID.get(), MDC.get("request_id"))));
            var uncarried = pool.submit(() -> List.of(REQUEST_ID.isBound(), String.valueOf(MDC.get("request_id"))));
            return Map.of("forked", List.of(first.get(), second.get()), "carried", carried.get(5, TimeUnit.SECONDS),
                    "uncarried", uncarried.get(5, TimeUnit.SECONDS));
        }
    }

    /** The task with the caller's id bound again where it runs, and in the MDC: a pool inherits neither. */
    static <T> Callable<T> carry(Callable<T> task) {
        String id = REQUEST_ID.get();
        return () -> {
            try (MDC.MDCCloseable logged = MDC.putCloseable("request_id", id)) {
                return ScopedValue.where(REQUEST_ID, id).call(task::call);
            }
        };
    }
}
