package com.example.threading.load.engine.traffic;

import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.OptionalLong;

/**
 * What one client following a cursor saw: every event id it received, in order, checked against what was
 * published: duplicated (an id received twice), out of order (an id below one received before) and, at the end,
 * lost (a published id never received). Ids are counted from {@code startId} (exclusive), the cursor the client
 * started from.
 *
 * <p>Not thread-safe: one client's thread records into it, and the scenario reads it only after that thread has ended
 * (the join orders the two).
 */
public final class DeliveryLedger {

    private final long startId;
    private final BitSet seen = new BitSet();
    /** Receipt time (System.nanoTime) of each id's first receipt, indexed by id - startId. */
    private long[] receivedAtNanos = new long[256];
    private long lastReceived;
    private long received;
    private long duplicated;
    private long outOfOrder;

    /** A ledger for a client that starts after event {@code startId}. */
    public DeliveryLedger(long startId) {
        this.startId = startId;
        this.lastReceived = startId;
    }

    /** Records one received event id, now; returns true when it is the first time this client received it. */
    public boolean receive(long id) {
        return receive(id, System.nanoTime());
    }

    /** Records one received event id at {@code atNanos}; returns true when it is the first time this client received it. */
    public boolean receive(long id, long atNanos) {
        received++;
        if (id < lastReceived) {
            outOfOrder++;
        }
        lastReceived = Math.max(lastReceived, id);
        if (id <= startId) {
            duplicated++; // at or before the start cursor: the client had it already
            return false;
        }
        int index = Math.toIntExact(id - startId);
        if (seen.get(index)) {
            duplicated++;
            return false;
        }
        seen.set(index);
        if (index >= receivedAtNanos.length) {
            receivedAtNanos = Arrays.copyOf(receivedAtNanos, Math.max(index + 1, receivedAtNanos.length * 2));
        }
        receivedAtNanos[index] = atNanos;
        return true;
    }

    /** When this client first received {@code id} (System.nanoTime), if it did. */
    public OptionalLong receivedAt(long id) {
        if (id <= startId || !seen.get(Math.toIntExact(id - startId))) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(receivedAtNanos[Math.toIntExact(id - startId)]);
    }

    /** Published ids (above the start) this client never received. */
    public long lost(Collection<Long> published) {
        return skipped(published, Long.MAX_VALUE);
    }

    /**
     * Published ids (above the start) this client never received although its cursor moved to {@code cursor} or past:
     * skipped, not late (a {@code missed} answer, or a server that jumped the cursor); the others it never received were
     * still ahead of its cursor when it stopped.
     */
    public long skipped(Collection<Long> published, long cursor) {
        return published.stream().filter(id -> id > startId && id <= cursor && !seen.get(Math.toIntExact(id - startId))).count();
    }

    /** The highest id received, or the start id. */
    public long lastReceived() {
        return lastReceived;
    }

    /** Event ids received, duplicates included. */
    public long received() {
        return received;
    }

    /** Ids received more than once (or at or below the start cursor). */
    public long duplicated() {
        return duplicated;
    }

    /** Ids received after a higher one. */
    public long outOfOrder() {
        return outOfOrder;
    }
}
