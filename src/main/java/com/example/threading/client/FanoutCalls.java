package com.example.threading.client;

import io.reactivex.Flowable;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.client.InvocationCallback;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import org.glassfish.jersey.client.rx.rxjava2.RxFlowableInvoker;

/**
 * Starts the {@code n} calls of a fan-out in one of four ways and reports each outcome to the {@link FanoutRun}.
 * Nothing here waits: the calling (Jetty) thread only starts the calls. Calls that have not gone out when the
 * fan-out times out are dropped by {@link ThreadRecordingFilter}; Jersey's {@code rx()} and {@code async()}
 * futures ignore {@code cancel}, so that is the one place that sees every call before it is sent.
 *
 * <p>Thread-safety: stateless apart from the shared, thread-safe Jersey client and pools; called concurrently.
 */
final class FanoutCalls {

    private final Executor managedPool;
    private final ThreadPoolExecutor managedPoolState;
    private final CommonCallLimit commonLimit;

    /**
     * @param managedPool      the client's {@code @ClientAsyncExecutor} (instrumented), for the stages we add
     * @param managedPoolState the same pool unwrapped, to describe its sizes
     * @param commonLimit      the cap on {@code via=common} calls in flight; the resource admits a fan-out before {@link #start}
     */
    FanoutCalls(Executor managedPool, ThreadPoolExecutor managedPoolState, CommonCallLimit commonLimit) {
        this.managedPool = managedPool;
        this.managedPoolState = managedPoolState;
        this.commonLimit = commonLimit;
    }

    /** Starts {@code run.n()} GETs of {@code target} the given way. */
    void start(Via via, WebTarget target, FanoutRun run) {
        switch (via) {
            case MANAGED -> managed(target, run);
            case RXJAVA -> rxjava(target, run);
            case CALLBACK -> callback(target, run);
            case COMMON -> common(target, run);
            default -> throw new IllegalArgumentException("unknown via " + via);
        }
    }

    /** What runs the calls of {@code via} in this JVM, for the answer. */
    String executorFor(Via via) {
        if (via != Via.COMMON) {
            return String.format("managed pool jersey-client-fanout: %d core / %d max threads, queue of %d",
                    managedPoolState.getCorePoolSize(), managedPoolState.getMaximumPoolSize(),
                    managedPoolState.getQueue().size() + managedPoolState.getQueue().remainingCapacity());
        }
        int parallelism = ForkJoinPool.getCommonPoolParallelism();
        Executor defaultExecutor = new CompletableFuture<Void>().defaultExecutor();
        String jdk = "Java " + Runtime.version().feature() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs";
        String cap = "; at most " + commonLimit.maxCalls() + " calls in flight (client.commonMaxCalls)";
        return defaultExecutor == ForkJoinPool.commonPool()
                ? "ForkJoinPool.commonPool() with parallelism " + parallelism + " (" + jdk + ")" + cap
                : "a new thread per task (" + defaultExecutor.getClass().getName()
                        + ": common-pool parallelism " + parallelism + " < 2 on " + jdk + ")" + cap;
    }

    /** JAX-RS {@code rx()}: Jersey runs the call on the managed pool; our stage is put on the same pool. */
    private void managed(WebTarget target, FanoutRun run) {
        for (int i = 0; i < run.n(); i++) {
            try {
                request(target, run).rx().get(String.class)
                        .handleAsync((body, error) -> complete(run, error), managedPool)
                        // Only if the pool refused the stage above: it never ran, so report here.
                        .exceptionally(refused -> complete(run, refused));
            } catch (RejectedExecutionException e) {
                run.complete(e);
            }
        }
    }

    /** Jersey's RxJava2 invoker: {@code subscribeOn}/{@code observeOn} the managed pool, merged with all n in flight. */
    private void rxjava(WebTarget target, FanoutRun run) {
        List<Flowable<Optional<Throwable>>> calls = new ArrayList<>(run.n());
        for (int i = 0; i < run.n(); i++) {
            calls.add(request(target, run).rx(RxFlowableInvoker.class).get(String.class)
                    .map(body -> Optional.<Throwable>empty())
                    .onErrorReturn(Optional::of));
        }
        // Not disposed at the fan-out timeout: a call that fails after disposal would be an undeliverable error
        // (printed by RxJava's global handler). Unsent calls are dropped by the request filter instead.
        Flowable.merge(calls, run.n()).subscribe(
                outcome -> run.complete(outcome.orElse(null)),
                run::complete); // not reached: each call turns its error into an outcome
    }

    /** {@code async()} with a callback: Jersey runs call and callback on the managed pool. */
    private void callback(WebTarget target, FanoutRun run) {
        for (int i = 0; i < run.n(); i++) {
            try {
                request(target, run).async().get(new InvocationCallback<String>() {
                    @Override
                    public void completed(String body) {
                        run.complete(null);
                    }

                    @Override
                    public void failed(Throwable error) {
                        run.complete(error);
                    }
                });
            } catch (RejectedExecutionException e) {
                run.complete(e);
            }
        }
    }

    /**
     * The pitfall, as it is usually written: a blocking call handed to {@code supplyAsync} without an executor. Here
     * it is handed to the same default executor through {@link CommonCallLimit#executor()}, which only counts the
     * calls in flight (the resource has admitted all {@code n} of them).
     */
    private void common(WebTarget target, FanoutRun run) {
        List<CompletableFuture<String>> calls = new ArrayList<>(run.n());
        Executor asyncDefault = commonLimit.executor();
        for (int i = 0; i < run.n(); i++) {
            CompletableFuture<String> call;
            try {
                call = CompletableFuture.supplyAsync(() -> request(target, run).get(String.class), asyncDefault);
            } catch (RejectedExecutionException e) {
                run.complete(e); // its place was given back
                continue;
            }
            calls.add(call);
            call.handle((body, error) -> complete(run, error));
        }
        // A cancelled supplyAsync task is skipped when a worker dequeues it, so it no longer holds the common pool.
        run.onTimeoutCancel(() -> calls.forEach(call -> call.cancel(false)));
    }

    private static Invocation.Builder request(WebTarget target, FanoutRun run) {
        return target.request(MediaType.APPLICATION_JSON_TYPE).property(ThreadRecordingFilter.RUN_PROPERTY, run);
    }

    private static Void complete(FanoutRun run, Throwable error) {
        run.complete(error);
        return null;
    }
}
