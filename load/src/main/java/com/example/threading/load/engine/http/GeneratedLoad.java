package com.example.threading.load.engine.http;

import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.service.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.util.component.LifeCycle;
import org.mortbay.jetty.load.generator.LoadGenerator;
import org.mortbay.jetty.load.generator.Resource;

/**
 * One phase of open-model load from Jetty's {@link LoadGenerator} (one sender thread pacing the sends),
 * with every request recorded by a {@link PhaseRecorder} from its intended send time. Bounded: the
 * generator stops sending after {@code runFor} (or its iterations), and {@link #await} gives up on the
 * answers at a hard deadline, stopping the generator's clients.
 *
 * <p>Thread-safety: confined to its owner, the thread that made it; {@link #begin}, {@link #isDone},
 * {@link #await}, {@link #result} and {@link #histogram} check that they are called there. The generator's
 * sender thread and its clients' threads only call into the {@link Schedule}, the {@link PhaseRecorder} and the
 * {@link SendStages}, all made for that; a request's begin time is written by the client thread that begins it
 * and read by the one that completes it (Jetty's client orders begin before complete for one request). {@link #recorder()}'s counts may be read from anywhere.
 */
public final class GeneratedLoad implements Load {

    /**
     * What to send: the resource (one path, or a group whose children go out in parallel), how fast and how long,
     * and at most how many connections each user opens (HTTP/1.1 sends one request at a time per connection, so
     * beyond this requests wait in the client's queue instead of opening more).
     */
    public record Spec(String name, Protocol protocol, Resource resource, String pathLabel, int ratePerSecond,
                int iterations, Duration runFor, int users, Duration idleTimeout, int connectionsPerUser) {

        /** The default: up to {@link #DEFAULT_CONNECTIONS} connections per user. */
        public Spec(String name, Protocol protocol, Resource resource, String pathLabel, int ratePerSecond,
                    int iterations, Duration runFor, int users, Duration idleTimeout) {
            this(name, protocol, resource, pathLabel, ratePerSecond, iterations, runFor, users, idleTimeout, DEFAULT_CONNECTIONS);
        }
    }

    /** Connections per user unless a spec says otherwise: enough never to queue in the client. */
    public static final int DEFAULT_CONNECTIONS = 1024;

    private final Spec spec;
    private final PhaseRecorder recorder;
    private final SendStages stages = new SendStages();
    private final LoadGenerator generator;
    private final Thread owner = Thread.currentThread();
    private CompletableFuture<Void> completion;

    /** Prepares the phase against the target; nothing is sent until {@link #begin()}. */
    public GeneratedLoad(Target target, Spec spec, Schedule schedule, Path reportDirectory) {
        this.spec = spec;
        this.recorder = new PhaseRecorder(spec.name(), reportDirectory.resolve(fileName(spec.name()) + ".hlog"), target.serverCpu());
        LoadGenerator.Builder builder = LoadGenerator.builder()
                .scheme(target.applicationUri().getScheme())
                .host(target.applicationUri().getHost())
                .port(target.applicationUri().getPort())
                .httpClientTransportBuilder(spec.protocol().transport())
                .resource(spec.resource())
                .threads(1)
                .usersPerThread(spec.users())
                .channelsPerUser(spec.connectionsPerUser())
                .resourceRate(spec.ratePerSecond())
                .maxRequestsQueued(1_000_000)
                .idleTimeout(spec.idleTimeout().toMillis())
                .connectTimeout(5_000)
                .requestListener(new Request.Listener() {
                    private final java.util.concurrent.atomic.AtomicLong sequence = new java.util.concurrent.atomic.AtomicLong();

                    @Override
                    public void onQueued(Request request) {
                        // The generator's single sender thread queues requests in the order they were scheduled.
                        long queued = System.nanoTime();
                        long intended = schedule.intendedNanos(sequence.incrementAndGet(), queued);
                        recorder.sent();
                        stages.senderLag(queued - intended);
                        long[] begun = {queued};
                        request.onRequestBegin(begin -> {
                            begun[0] = System.nanoTime();
                            stages.clientQueue(begun[0] - queued);
                        });
                        request.onComplete(result -> {
                            long completed = System.nanoTime();
                            stages.exchange(completed - begun[0]);
                            recorder.record(result.isSucceeded() ? Outcome.ofStatus(result.getResponse().getStatus())
                                    : Outcome.ofFailure(result.getFailure()), intended, completed);
                        });
                    }
                })
                .resourceListener((Resource.NodeListener) info -> {
                    // A request the client refused before queueing it never reached onQueued: count it here.
                    if (info.getFailure() != null && Outcome.ofFailure(info.getFailure()) == Outcome.CLIENT_REJECTED) {
                        recorder.sent();
                        long now = System.nanoTime();
                        recorder.record(Outcome.CLIENT_REJECTED, now, now);
                    }
                });
        if (spec.iterations() > 0) {
            builder.iterationsPerThread(spec.iterations());
        } else {
            builder.runFor(spec.runFor().toSeconds(), TimeUnit.SECONDS);
        }
        this.generator = builder.build();
    }

    /** Starts sending. */
    @Override
    public void begin() {
        checkOwner();
        completion = generator.begin();
    }

    /** Whether every request has been sent and answered. */
    @Override
    public boolean isDone() {
        checkOwner();
        return completion.isDone();
    }

    /** The recorder (for live progress). */
    @Override
    public PhaseRecorder recorder() {
        return recorder;
    }

    /**
     * Waits until every answer is in or the deadline (System.nanoTime) passes, then stops the generator and
     * returns the phase's result; requests still open at the deadline are counted unanswered.
     */
    @Override
    public PhaseResult await(long deadlineNanos) throws InterruptedException {
        checkOwner();
        try {
            long wait = deadlineNanos - System.nanoTime();
            if (wait > 0) {
                completion.get(wait, TimeUnit.NANOSECONDS);
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ignored) {
            // Failures are counted request by request; a timeout means the deadline cut the phase.
        }
        PhaseResult result = result();
        generator.interrupt();
        LifeCycle.stop(generator);
        return result;
    }

    /** The phase's result once {@link #await} has returned. */
    public PhaseResult result() {
        checkOwner();
        return recorder.finish(spec.protocol().label(), spec.pathLabel(), spec.ratePerSecond());
    }

    /** Where the phase's requests spent their time inside the tool (see {@link SendStages}); complete once awaited. */
    public Map<String, org.HdrHistogram.Histogram> stages() {
        checkOwner();
        return stages.histograms();
    }

    /** The histogram of the 2xx latencies (complete once awaited). */
    @Override
    public org.HdrHistogram.Histogram histogram() {
        checkOwner();
        return recorder.histogram();
    }

    /** The histogram of the 503 latencies (complete once awaited). */
    public org.HdrHistogram.Histogram rejectedHistogram() {
        checkOwner();
        return recorder.rejectedHistogram();
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("a GeneratedLoad is driven by the thread that made it (" + owner.getName()
                    + "), not " + Thread.currentThread().getName());
        }
    }

    /** A phase name made safe as a file name. */
    public static String fileName(String name) {
        return name.replaceAll("[^A-Za-z0-9._-]+", "-");
    }
}
