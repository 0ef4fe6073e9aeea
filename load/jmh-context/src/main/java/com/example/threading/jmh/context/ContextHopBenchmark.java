package com.example.threading.jmh.context;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.Scope;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One hop of a request's context onto a thread, the two ways: OpenTelemetry's {@link Context} made current (its
 * default storage, a {@code ThreadLocal}), read and its scope closed, as a wrapped task does; and a
 * {@link ScopedValue} bound for the hop's extent and read, as a carried task does. Each with one read and with eight
 * (a request reads its context again at each log line and outgoing call), so that the read alone is the difference.
 * {@code baseline} returns the value with no context at all. One thread: a hop's cost, not contention.
 */
@State(org.openjdk.jmh.annotations.Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ContextHopBenchmark {

    private static final ContextKey<String> REQUEST_ID = ContextKey.named("request.id");
    private static final ScopedValue<String> SCOPED_ID = ScopedValue.newInstance();
    private static final int READS = 8;

    private String id;
    private Context context;

    /** The request's id, and a context holding it. */
    @Setup
    public void setup() {
        id = "request-1";
        context = Context.root().with(REQUEST_ID, id);
    }

    /** No context: the value itself. */
    @Benchmark
    public String baseline() {
        return id;
    }

    /** The context made current, read once, and its scope closed (the thread's previous context back). */
    @Benchmark
    public String threadLocalHop() {
        try (Scope current = context.makeCurrent()) {
            return Context.current().get(REQUEST_ID);
        }
    }

    /** The same, read {@value #READS} times. */
    @Benchmark
    public int threadLocalHopReads() {
        try (Scope current = context.makeCurrent()) {
            int length = 0;
            for (int read = 0; read < READS; read++) {
                length += Context.current().get(REQUEST_ID).length();
            }
            return length;
        }
    }

    /** The id bound to a scoped value for the hop's extent, read once. */
    @Benchmark
    public String scopedValueHop() {
        return ScopedValue.where(SCOPED_ID, id).call(SCOPED_ID::get);
    }

    /** The same, read {@value #READS} times. */
    @Benchmark
    public int scopedValueHopReads() {
        return ScopedValue.where(SCOPED_ID, id).call(() -> {
            int length = 0;
            for (int read = 0; read < READS; read++) {
                length += SCOPED_ID.get().length();
            }
            return length;
        });
    }
}
