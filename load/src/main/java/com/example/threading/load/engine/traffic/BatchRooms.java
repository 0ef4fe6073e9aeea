package com.example.threading.load.engine.traffic;

import java.util.SplittableRandom;

/**
 * The rooms each published batch goes to, one per message. Batches of one go round-robin over the rooms. A larger
 * batch's rooms are drawn as CometD's benchmark sender draws them, uniformly and with replacement, from a generator
 * with a fixed seed, so two runs publish to the same rooms. In CometD's shape (100 rooms, 10 per client, batches of
 * 10), round-robin would give each client of {@link TopicsTraffic#roomsOf} (whose rooms are one residue class modulo
 * 10) exactly one message per batch, every client answered at the same instant, where CometD's clients get none, one or
 * several.
 *
 * <p>Thread-safety: none; one thread (the publisher's) calls {@link #next}, each call happening-before the next.
 */
final class BatchRooms {

    /** The seed of the drawn rooms: fixed, so that every run publishes to the same rooms. */
    static final long SEED = 20_261_127L;

    private final int rooms;
    private final int batchSize;
    private final SplittableRandom drawn = new SplittableRandom(SEED);
    private long roundRobin;

    /** Batches of {@code batchSize} (>= 1) messages over rooms {@code 0..rooms-1}. */
    BatchRooms(int rooms, int batchSize) {
        if (rooms < 1 || batchSize < 1) {
            throw new IllegalArgumentException("need rooms >= 1 and a batch size >= 1, got " + rooms + " and " + batchSize);
        }
        this.rooms = rooms;
        this.batchSize = batchSize;
    }

    /** The rooms of the next batch, one per message, in the order they are sent. */
    int[] next() {
        int[] of = new int[batchSize];
        for (int i = 0; i < batchSize; i++) {
            of[i] = batchSize == 1 ? (int) (roundRobin++ % rooms) : drawn.nextInt(rooms);
        }
        return of;
    }
}
