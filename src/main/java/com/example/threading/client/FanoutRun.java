package com.example.threading.client;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.AsyncResponse;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One {@code /fanout} request: counts the outcome of each of its {@code n} calls and the threads that made
 * and completed them, and answers the suspended request once every call has an outcome, or when the fan-out
 * timeout fires (the calls still running are then counted as errors of kind {@value #UNFINISHED}).
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Outcomes and threads arrive from client threads, concurrently ({@link #complete}, {@link #recordThread}); the
 *       fan-out timeout from Jersey's timeout thread ({@link #timedOut}); the starting Jetty thread registers what to
 *       cancel ({@link #onTimeoutCancel}) and RxJava asks {@link #isAnswered}. Every field that changes is guarded by
 *       this run's monitor ({@code @GuardedBy("this")}), and every method that reads or writes one holds it.</li>
 *   <li>Exactly one answer: it is built under the monitor by whichever thread sets {@code answered} first (the last
 *       outcome, or the timeout), and sent once, outside it; later outcomes find {@code answered} set and are ignored.
 *       The one private method that relies on its caller's lock, {@code answer()}, checks it ({@link Thread#holdsLock},
 *       an {@link IllegalStateException} if not held): without the lock two threads could both answer.</li>
 *   <li>The cancel action: registered under the monitor, or run at once by the registering thread if the timeout came
 *       first; the timeout thread takes it under the monitor and runs it after sending the answer.</li>
 * </ul>
 * {@code FanoutRunTest} checks it on real threads: eight threads' outcomes racing the timeout, exactly one answer.
 */
final class FanoutRun {

    static final int THREAD_SAMPLE_SIZE = 10;
    static final String UNFINISHED = "unfinished at fan-out timeout";

    private final int n;
    private final Via via;
    private final Integer ms;
    private final String executor;
    private final AsyncResponse response;
    private final Timer.Context clock;
    private final Meter errorMeter;
    private final long startNanos = System.nanoTime();

    @GuardedBy("this")
    private final Set<String> threadNames = new HashSet<>();
    @GuardedBy("this")
    private final Map<String, Integer> errorsByKind = new TreeMap<>();
    @GuardedBy("this")
    private int succeeded;
    @GuardedBy("this")
    private int failed;
    @GuardedBy("this")
    private boolean answered;
    @GuardedBy("this")
    private boolean timedOut;
    @GuardedBy("this")
    private Runnable cancelUnfinished = () -> { };

    FanoutRun(int n, Via via, Integer ms, String executor, AsyncResponse response, ViaMetrics metrics) {
        this.n = n;
        this.via = via;
        this.ms = ms;
        this.executor = executor;
        this.response = response;
        this.clock = metrics.responseTime().time();
        this.errorMeter = metrics.errors();
    }

    /** Number of calls this run makes. */
    int n() {
        return n;
    }

    /**
     * What else to do with the calls still queued when the fan-out times out (the request filter already
     * refuses to send them; this can also keep them off their threads). Calls already blocked in a read end at
     * the client timeout.
     */
    void onTimeoutCancel(Runnable cancel) {
        synchronized (this) {
            if (!timedOut) {
                cancelUnfinished = cancel;
                return;
            }
        }
        cancel.run(); // the timeout came while the calls were still being started
    }

    /** Whether the answer has gone out (every outcome in, or the fan-out timeout): no more calls need to start. */
    synchronized boolean isAnswered() {
        return answered;
    }

    /** Notes the thread about to send a request of this run; {@code false} once the run is answered (don't send). */
    synchronized boolean recordThread(Thread thread) {
        if (answered) {
            return false;
        }
        threadNames.add(thread.getName());
        return true;
    }

    /** One call has its outcome: {@code error == null} for a 2xx answer. Records the calling thread as a completion thread. */
    void complete(Throwable error) {
        String kind = error == null ? null : kindOf(error);
        FanoutResult result;
        synchronized (this) {
            if (answered) {
                return;
            }
            threadNames.add(Thread.currentThread().getName());
            if (kind == null) {
                succeeded++;
            } else {
                failed++;
                errorsByKind.merge(kind, 1, Integer::sum);
            }
            if (succeeded + failed < n) {
                return;
            }
            result = answer();
        }
        send(result);
    }

    /** The fan-out timeout fired: answer with what has finished, the rest counted as unfinished errors. */
    void timedOut() {
        FanoutResult result;
        Runnable cancel;
        synchronized (this) {
            if (answered) {
                return;
            }
            int unfinished = n - succeeded - failed;
            failed += unfinished;
            errorsByKind.merge(UNFINISHED, unfinished, Integer::sum);
            result = answer();
            timedOut = true;
            cancel = cancelUnfinished;
        }
        send(result);
        cancel.run();
    }

    /** Marks the run answered and builds the answer; the caller must hold this run's lock. */
    @GuardedBy("this")
    private FanoutResult answer() {
        if (!Thread.holdsLock(this)) {
            throw new IllegalStateException("a fan-out run is answered only under its lock");
        }
        answered = true;
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
        TreeSet<String> sorted = new TreeSet<>(threadNames);
        List<String> sample = new ArrayList<>(THREAD_SAMPLE_SIZE);
        for (String name : sorted) {
            if (sample.size() == THREAD_SAMPLE_SIZE) {
                break;
            }
            sample.add(name);
        }
        Map<String, Integer> byPool = new LinkedHashMap<>();
        for (String name : sorted) {
            byPool.merge(poolOf(name), 1, Integer::sum);
        }
        return new FanoutResult(n, via.label(), ms, elapsedMs, sorted.size(), List.copyOf(sample), byPool,
                succeeded, failed, new LinkedHashMap<>(errorsByKind), executor);
    }

    private void send(FanoutResult result) {
        clock.stop();
        errorMeter.mark(result.errors());
        response.resume(result);
    }

    /** The thread's name without its trailing number: {@code jersey-client-fanout-12} → {@code jersey-client-fanout-}. */
    static String poolOf(String threadName) {
        int end = threadName.length();
        while (end > 0 && Character.isDigit(threadName.charAt(end - 1))) {
            end--;
        }
        return threadName.substring(0, end);
    }

    /** "HTTP 503" for a non-2xx answer (whose response is closed here), else the class of the underlying cause. */
    static String kindOf(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof WebApplicationException rejected) {
            rejected.getResponse().close();
            return "HTTP " + rejected.getResponse().getStatus();
        }
        if (cause instanceof ProcessingException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getClass().getSimpleName();
    }
}
