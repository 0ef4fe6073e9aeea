package com.example.threading.events.sse;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The open Server-Sent Events streams of this instance: the bound on how many ({@link #tryOpen}, released when a stream
 * completes), each stream's reconnect jitter, and the sweep that sheds streams whose socket took nothing for the drain
 * deadline and ends streams that reached their lifetime.
 *
 * <p>Jitter: the {@code k}-th stream opened gets {@code (k mod 8) / 8} of the base retry on top of it, so the
 * reconnects of streams that lose their connection together (an instance stopping, a proxy restarting) spread evenly
 * over the base period, the same in every run, as {@link com.example.threading.events.hub.ShutdownSpread} spreads the
 * stop's answers.
 *
 * <p>Thread-safety: any thread may call any method. The count of places and the set of streams are concurrent; a place
 * is taken before a stream is built and given back once, when its request completes ({@link #closed}, which the set's
 * removal makes idempotent). The sweep runs on one thread and may see a stream that is ending: ending twice is a
 * no-op for the stream. {@code SseStreamsLincheckTest} checks the places over the interleavings of three requests
 * with a bound of one, one of them told of its completion twice.
 */
final class SseStreams {

    private static final int JITTER_STEPS = 8;

    private final int maxStreams;
    private final long retryMs;
    private final long maxLifetimeNanos;
    private final long drainTimeoutNanos;
    private final AtomicInteger places = new AtomicInteger();
    private final AtomicInteger opened = new AtomicInteger();
    private final Set<SseStream> open = ConcurrentHashMap.newKeySet();

    SseStreams(int maxStreams, long retryMs, long maxLifetimeNanos, long drainTimeoutNanos) {
        this.maxStreams = maxStreams;
        this.retryMs = retryMs;
        this.maxLifetimeNanos = maxLifetimeNanos;
        this.drainTimeoutNanos = drainTimeoutNanos;
    }

    /** Takes a place for a new stream; false when {@code maxStreams} are open. */
    boolean tryOpen() {
        while (true) {
            int now = places.get();
            if (now >= maxStreams) {
                return false;
            }
            if (places.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Gives back a place taken by {@link #tryOpen} for a stream that did not start. */
    void release() {
        places.decrementAndGet();
    }

    /** The base reconnect delay of every stream. */
    long retryMs() {
        return retryMs;
    }

    /** The next stream's jitter on top of the base retry: 0, 1/8, ..., 7/8 of it in turn. */
    int nextJitterMs() {
        return (int) (retryMs * Math.floorMod(opened.getAndIncrement(), JITTER_STEPS) / JITTER_STEPS);
    }

    /** Registers a started stream, which holds a place taken by {@link #tryOpen}. */
    void started(SseStream stream) {
        open.add(stream);
    }

    /** The stream's request completed: its place is free again (once, however often this is called). */
    void closed(SseStream stream) {
        if (open.remove(stream)) {
            places.decrementAndGet();
        }
    }

    /** Streams open now. */
    int openCount() {
        return open.size();
    }

    int maxStreams() {
        return maxStreams;
    }

    /** Bytes the open streams hold unsent. */
    long unsentBytes() {
        long sum = 0;
        for (SseStream stream : open) {
            sum += stream.unsentBytes();
        }
        return sum;
    }

    /** Sheds the streams stalled past the drain deadline and ends those past their lifetime; every few hundred ms. */
    void sweep(long nowNanos) {
        for (SseStream stream : open) {
            if (stream.stalled(nowNanos, drainTimeoutNanos)) {
                stream.shed("nothing written for sse.drainTimeout");
            } else if (nowNanos - stream.openedNanos() > maxLifetimeNanos || nowNanos - stream.expiresNanos() >= 0) {
                stream.reconnect(); // its lifetime, or its credentials' (events.auth): the client comes back, or is refused
            }
        }
    }
}
