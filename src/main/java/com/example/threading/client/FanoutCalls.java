package com.example.threading.client;

import io.opentelemetry.context.Context;
import io.reactivex.Flowable;
import io.reactivex.Single;
import io.reactivex.disposables.Disposable;
import jakarta.ws.rs.client.Invocation;
import jakarta.ws.rs.client.InvocationCallback;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Starts the {@code n} calls of a fan-out in one of five ways and reports each outcome to the {@link FanoutRun}.
 * Nothing here waits: the calling (Jetty) thread only starts the calls.
 *
 * <p>Admission first ({@link #tryAdmit}): the three managed ways share {@link CallPlaces}, one per call in flight,
 * and a fan-out runs at most {@code min(n, places)} calls at once ({@link CallWindow}, RxJava's {@code flatMap}
 * with {@code maxConcurrency}); {@code via=common} has its own cap ({@link CommonCallLimit}). Each managed call is
 * one task on the managed pool, which makes the blocking call and reports its outcome on the same thread, so the
 * tasks on the pool never exceed twice the places (a call's task, and the next call it started while ending): with
 * {@code client.workQueueSize} at least that, the pool never refuses. Should it refuse anyway (it is shutting down,
 * or configured smaller), the refusal is that call's error, in every way: never a lost call.
 *
 * <p>Calls that have not gone out when the fan-out times out are not started ({@link CallWindow#stop}, RxJava's
 * {@code takeWhile}), or dropped by {@link ThreadRecordingFilter} if they were already handed to a thread.
 */
final class FanoutCalls {

    private final Executor managedPool;
    private final ThreadPoolExecutor managedPoolState;
    private final CallPlaces managedPlaces;
    private final CommonCallLimit commonLimit;
    private final StructuredFanouts structured;
    private final Duration deadline;

    /**
     * @param managedPool      the client's {@code @ClientAsyncExecutor} (instrumented), for the RxJava calls
     * @param managedPoolState the same pool unwrapped, to describe its sizes
     * @param managedPlaces    calls in flight on the managed pool (and {@code via=structured}), over all fan-outs
     * @param commonLimit      the cap on {@code via=common} calls in flight
     * @param structured       {@code via=structured}'s scopes, where the JVM can run them
     * @param deadline         the fan-out timeout: a structured scope's deadline
     */
    FanoutCalls(Executor managedPool, ThreadPoolExecutor managedPoolState, CallPlaces managedPlaces, CommonCallLimit commonLimit,
                StructuredFanouts structured, Duration deadline) {
        this.managedPool = managedPool;
        this.managedPoolState = managedPoolState;
        this.managedPlaces = managedPlaces;
        this.commonLimit = commonLimit;
        this.structured = structured;
        this.deadline = deadline;
    }

    /** Why this JVM cannot make the {@code via} way's calls; empty when it can. */
    Optional<String> missing(Via via) {
        return via == Via.STRUCTURED ? structured.missing() : Optional.empty();
    }

    /** Most calls a fan-out of {@code n} runs at once the {@code via} way. */
    int width(Via via, int n) {
        return via == Via.COMMON ? n : Math.min(n, managedPlaces.capacity());
    }

    /** Takes the places a fan-out of {@code n} calls needs the {@code via} way, all or none; false when they are not free. */
    boolean tryAdmit(Via via, int n) {
        return via == Via.COMMON ? commonLimit.tryAdmit(n) : managedPlaces.tryTake(width(via, n));
    }

    /** Most calls in flight at once the {@code via} way, over all fan-outs. */
    int capacity(Via via) {
        return via == Via.COMMON ? commonLimit.maxCalls() : managedPlaces.capacity();
    }

    /** Calls in flight the {@code via} way, over all fan-outs. */
    int inFlight(Via via) {
        return via == Via.COMMON ? commonLimit.inFlight() : managedPlaces.inUse();
    }

    /** Starts {@code run.n()} GETs of {@code target} the given way; the fan-out was admitted by {@link #tryAdmit}. */
    void start(Via via, WebTarget target, FanoutRun run) {
        if (via == Via.COMMON) {
            common(target, run);
            return;
        }
        int width = width(via, run.n());
        Release release = Release.of(run, () -> managedPlaces.give(width));
        if (via == Via.RXJAVA) {
            rxjava(target, run, width, release);
            return;
        }
        if (via == Via.STRUCTURED) {
            // A subtask's virtual thread inherits no ThreadLocal, so OpenTelemetry's Context is carried in by hand.
            Supplier<Throwable> call = Context.current().wrapSupplier(() -> blockingCall(target, run));
            structured.fanout().orElseThrow().start(run.n(), width, deadline, call, release.outcome(), run::isAnswered,
                    release.placesBack());
            return;
        }
        Consumer<Throwable> outcome = release.outcome();
        CallWindow.Call call = via == Via.MANAGED ? ended -> managed(target, run, outcome, ended)
                : ended -> callback(target, run, outcome, ended);
        CallWindow window = new CallWindow(run.n(), width, call, release.placesBack());
        run.onTimeoutCancel(window::stop);
        window.open();
    }

    /**
     * A fan-out's places, given back once: when its last call has its outcome, before that outcome sends the answer
     * (so that the client's next fan-out, sent as the answer arrives, finds them free), or when its calls have all
     * ended after a timeout, whichever comes first. Without it the last outcome answered, and the places came back
     * only after, on the same thread or another: a fan-out sent at once could be refused with 503.
     *
     * @param outcome    what each call reports instead of {@code FanoutRun.complete}
     * @param placesBack what the way runs once its calls have all ended
     */
    private record Release(Consumer<Throwable> outcome, Runnable placesBack) {

        static Release of(FanoutRun run, Runnable givePlacesBack) {
            AtomicBoolean given = new AtomicBoolean();
            Runnable placesBack = () -> {
                if (given.compareAndSet(false, true)) {
                    givePlacesBack.run();
                }
            };
            AtomicInteger outcomes = new AtomicInteger();
            return new Release(error -> {
                if (outcomes.incrementAndGet() == run.n()) {
                    placesBack.run();
                }
                run.complete(error);
            }, placesBack);
        }
    }

    /** What runs the calls of {@code via} in this JVM, for the answer. */
    String executorFor(Via via) {
        if (via == Via.STRUCTURED) {
            return String.format("a StructuredTaskScope per fan-out, a virtual thread per call, deadline %d ms"
                    + " (client.fanoutTimeout); at most %d calls in flight (client.maxCallsInFlight, shared with the managed pool)",
                    deadline.toMillis(), managedPlaces.capacity());
        }
        if (via != Via.COMMON) {
            return String.format("managed pool jersey-client-fanout: %d core / %d max threads, queue of %d;"
                            + " at most %d calls in flight (client.maxCallsInFlight)",
                    managedPoolState.getCorePoolSize(), managedPoolState.getMaximumPoolSize(),
                    managedPoolState.getQueue().size() + managedPoolState.getQueue().remainingCapacity(),
                    managedPlaces.capacity());
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

    /**
     * JAX-RS {@code rx()}: Jersey runs the call on the managed pool and completes the stage there; the outcome is
     * recorded on that thread ({@code whenComplete}, no second task).
     */
    private static void managed(WebTarget target, FanoutRun run, Consumer<Throwable> complete, Runnable ended) {
        Consumer<Throwable> outcome = onceThen(complete, ended);
        try {
            request(target, run).rx().get(String.class).whenComplete((body, error) -> outcome.accept(error));
        } catch (RuntimeException refused) { // the pool refused the call: no stage will complete
            outcome.accept(refused);
        }
    }

    /** {@code async()} with a callback: Jersey runs the call and the callback on the managed pool. */
    private static void callback(WebTarget target, FanoutRun run, Consumer<Throwable> complete, Runnable ended) {
        Consumer<Throwable> outcome = onceThen(complete, ended);
        try {
            request(target, run).async().get(new InvocationCallback<String>() {
                @Override
                public void completed(String body) {
                    outcome.accept(null);
                }

                @Override
                public void failed(Throwable error) {
                    outcome.accept(error);
                }
            });
        } catch (RuntimeException refused) {
            outcome.accept(refused);
        }
    }

    /**
     * RxJava 2: each call a {@code Single} that runs the blocking call as one task on the managed pool, merged with
     * at most {@code width} subscribed at once. Not {@code subscribeOn(Schedulers.from(pool))}: a task the pool
     * refuses is handed to RxJava's global error handler there and the call never ends; here it is the call's error.
     * (Jersey's own {@code RxFlowableInvoker} is worse: {@code subscribeOn} and {@code observeOn} the pool, two
     * tasks per call, and the same drop.) New calls stop at the fan-out timeout ({@code takeWhile}); the places are
     * given back with the last outcome, or after a timeout when the last running call has ended ({@link Release}).
     */
    private void rxjava(WebTarget target, FanoutRun run, int width, Release release) {
        Disposable unused = Flowable.range(0, run.n()) // ends by itself (takeWhile); nothing disposes it
                .takeWhile(i -> !run.isAnswered())
                .flatMapSingle(i -> rxCall(target, run), false, width)
                .doFinally(release.placesBack()::run)
                .subscribe(outcome -> release.outcome().accept(outcome.orElse(null)),
                        release.outcome()::accept); // not reached: every call's error is an outcome
    }

    /** One blocking call on the calling thread: {@code null} for a 2xx, else its error. */
    private static Throwable blockingCall(WebTarget target, FanoutRun run) {
        try {
            request(target, run).get(String.class);
            return null;
        } catch (RuntimeException error) {
            return error;
        }
    }

    private Single<Optional<Throwable>> rxCall(WebTarget target, FanoutRun run) {
        return Single.create(emitter -> {
            try {
                managedPool.execute(() -> {
                    Optional<Throwable> outcome;
                    try {
                        request(target, run).get(String.class);
                        outcome = Optional.empty();
                    } catch (RuntimeException error) {
                        outcome = Optional.of(error);
                    }
                    emitter.onSuccess(outcome);
                });
            } catch (RejectedExecutionException refused) {
                emitter.onSuccess(Optional.of(refused));
            }
        });
    }

    /**
     * The pitfall, as it is usually written: a blocking call handed to {@code supplyAsync} without an executor. Here
     * it is handed to the same default executor through {@link CommonCallLimit.Place#executor()}, which only counts the
     * calls in flight (the resource has admitted all {@code n} of them).
     */
    private void common(WebTarget target, FanoutRun run) {
        List<CompletableFuture<String>> calls = new ArrayList<>(run.n());
        for (int i = 0; i < run.n(); i++) {
            CompletableFuture<String> call;
            CommonCallLimit.Place place = commonLimit.place();
            try {
                call = CompletableFuture.supplyAsync(() -> {
                    try {
                        return request(target, run).get(String.class);
                    } finally {
                        place.giveBack(); // before the future completes and reports the outcome
                    }
                }, place.executor());
            } catch (RejectedExecutionException e) {
                run.complete(e); // its place was given back
                continue;
            }
            calls.add(call);
            call.handle((body, error) -> {
                run.complete(error);
                return null;
            });
        }
        // A cancelled supplyAsync task is skipped when a worker dequeues it, so it no longer holds the common pool.
        run.onTimeoutCancel(() -> calls.forEach(call -> call.cancel(false)));
    }

    private static Invocation.Builder request(WebTarget target, FanoutRun run) {
        return target.request(MediaType.APPLICATION_JSON_TYPE).property(ThreadRecordingFilter.RUN_PROPERTY, run);
    }

    /** Reports a call's first outcome ({@code complete}) and ends it in its window; any later report of the same call is ignored. */
    private static Consumer<Throwable> onceThen(Consumer<Throwable> complete, Runnable ended) {
        AtomicBoolean reported = new AtomicBoolean();
        return error -> {
            if (reported.compareAndSet(false, true)) {
                complete.accept(error);
                ended.run();
            }
        };
    }
}
