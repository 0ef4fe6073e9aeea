package com.example.threading.jmh;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.jetty.util.thread.ExecutionStrategy;

/**
 * A simulated connection: each {@link #produce()} "parses" one request by writing its bytes into a buffer (as a
 * selector thread fills a buffer from the socket), and returns the task that "handles" it by reading every byte of
 * that buffer back. Whoever runs the task reads data the producing thread has just written: on the producing thread
 * it is still in that core's cache; on a pool thread it has to travel to another core.
 *
 * <p>Thread-safety: {@link #arm} publishes a batch through the atomic count of unproduced requests, written after
 * the batch's latch, so a producer (the strategy guarantees one at a time, possibly a pool thread still looping from
 * the previous batch) sees the latch of every request it produces. Each buffer is written by the producer before the
 * task that reads it is handed to any thread (a happens-before edge); results are read after {@link #await}.
 */
final class RequestConnection implements ExecutionStrategy.Producer {

    /** Size of one request's data: 8 KiB, 128 cache lines. */
    static final int REQUEST_LONGS = 1024;

    private final long[][] buffers;
    private final long[] results;
    private final int blockOneIn;
    private final long blockNanos;
    private long seed;
    private volatile CountDownLatch done;
    /** Requests of the current batch not produced yet; written last by {@link #arm}, so reading it publishes the batch. */
    private final AtomicInteger unproduced = new AtomicInteger();

    /** {@code batch} requests per invocation; every {@code blockOneIn}-th handling blocks {@code blockNanos} (0 = never). */
    RequestConnection(int batch, int blockOneIn, long blockNanos, long seed) {
        this.buffers = new long[batch][REQUEST_LONGS];
        this.results = new long[batch];
        this.blockOneIn = blockOneIn;
        this.blockNanos = blockNanos;
        this.seed = seed | 1;
    }

    /** Queues the next batch of requests; the strategy's {@code produce()} then parses them one by one. */
    void arm() {
        done = new CountDownLatch(buffers.length);
        // Last: a producer still looping from the previous batch must not see new requests before the new latch.
        unproduced.set(buffers.length);
    }

    /** Waits until every request of the batch has been handled and returns a digest of the results. */
    long await() throws InterruptedException {
        if (!done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("batch not handled within 60 s: " + done.getCount() + " requests left");
        }
        long digest = 0;
        for (long result : results) {
            digest ^= result;
        }
        return digest;
    }

    @Override
    public Runnable produce() {
        int left = unproduced.get();
        if (left == 0) {
            return null;
        }
        // One producer at a time (the strategy's contract), so get-then-set cannot lose a request.
        unproduced.set(left - 1);
        int slot = buffers.length - left;
        long[] buffer = buffers[slot];
        long x = seed;
        for (int i = 0; i < buffer.length; i++) {
            // xorshift64: cheap, not foldable by the JIT, and writes every cache line of the buffer.
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            buffer[i] = x;
        }
        seed = x;
        boolean blocks = blockOneIn > 0 && slot % blockOneIn == blockOneIn - 1;
        return new Handle(slot, blocks, done);
    }

    /** Reads the request's bytes (and, if it is one of the blocking ones, parks like a blocking call would). */
    private final class Handle implements Runnable {

        private final int slot;
        private final boolean blocks;
        private final CountDownLatch batchDone;

        Handle(int slot, boolean blocks, CountDownLatch batchDone) {
            this.slot = slot;
            this.blocks = blocks;
            this.batchDone = batchDone;
        }

        @Override
        public void run() {
            long[] buffer = buffers[slot];
            long hash = 0x9E3779B97F4A7C15L;
            for (long word : buffer) {
                hash = (hash ^ word) * 0xBF58476D1CE4E5B9L;
            }
            if (blocks) {
                LockSupport.parkNanos(blockNanos);
            }
            results[slot] = hash;
            batchDone.countDown();
        }
    }
}
