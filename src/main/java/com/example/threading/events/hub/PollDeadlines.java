package com.example.threading.events.hub;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The polls' timeouts, kept by the hub rather than by Jetty: deadlines rounded up to a slot, one concurrent set per
 * slot, and one sweep per slot that expires the sets whose slot has passed.
 *
 * <p>Why not Jetty's own async timeout: Jetty schedules it in the server's one {@code ScheduledThreadPoolExecutor}
 * and cancels it when the request completes, so the 20,000 answers of one batch all remove a task from one heap
 * behind one lock. Why not Jetty's {@code CyclicTimeouts}, which keeps one timer for many expirable entities: it
 * finds the expired ones by iterating over all of them at each expiry, fine for the streams of one HTTP/2 connection,
 * not for tens of thousands of polls with a deadline each. Here adding a poll and forgetting it touch only the
 * concurrent set of its slot, and a sweep touches only the sets that are due.
 *
 * <p>A deadline is never early: it expires at the first sweep at or after its slot, so at most one slot (plus the
 * sweep's scheduling delay) late.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Request threads call {@link #add} and {@link #remove} concurrently, from any thread; each touches the set of
 *       one slot through the concurrent map.</li>
 *   <li>One thread at a time calls {@link #expireDue} (the hub's scheduled sweep). It takes a due slot's set out of
 *       the map before it walks it, so a set is walked once. An {@link #add} that raced with that removal may find its
 *       set taken: it adds the poll again to a fresh set of the same slot, which the next sweep expires. So a poll
 *       can be handed to {@code expire} twice, and {@code expire} must be idempotent (the hub's claim on a poll makes
 *       it so); a poll removed before its slot was taken is never handed over.</li>
 * </ul>
 * {@code PollDeadlinesTest} checks it on real threads, {@code PollDeadlinesLincheckTest} over the interleavings of two
 * adds and a remove racing with the sweep.
 */
final class PollDeadlines {

    private static final Logger LOG = LoggerFactory.getLogger(PollDeadlines.class);

    private final ConcurrentSkipListMap<Long, Set<ParkedPoll>> pollsBySlot = new ConcurrentSkipListMap<>();
    private final long slotNanos;
    private final LongSupplier nanoClock;

    /** Deadlines rounded up to slots of {@code slotMs}, read against {@code nanoClock} (e.g. {@code System::nanoTime}). */
    PollDeadlines(long slotMs, LongSupplier nanoClock) {
        if (slotMs <= 0) {
            throw new IllegalArgumentException("a slot must be positive, not " + slotMs + " ms");
        }
        this.slotNanos = TimeUnit.MILLISECONDS.toNanos(slotMs);
        this.nanoClock = nanoClock;
    }

    /** Expires {@code poll} {@code timeoutMs} from now, unless it is {@link #remove}d before. */
    void add(ParkedPoll poll, long timeoutMs) {
        long deadline = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long slot = -Math.floorDiv(-deadline, slotNanos); // rounded up: never early
        poll.deadlineSlot(slot);
        while (true) {
            Set<ParkedPoll> polls = pollsBySlot.computeIfAbsent(slot, t -> ConcurrentHashMap.newKeySet());
            polls.add(poll);
            if (pollsBySlot.get(slot) == polls) {
                return; // still in the map: the sweep that takes this set will see the poll
            }
            // A sweep took the set between computeIfAbsent and add, and may have walked it already: add again.
        }
    }

    /** Forgets {@code poll} (it completed); harmless if it was never added or has expired. */
    void remove(ParkedPoll poll) {
        Set<ParkedPoll> polls = pollsBySlot.get(poll.deadlineSlot());
        if (polls != null) {
            polls.remove(poll);
            // An emptied set stays until its slot is swept: removing it here could race with an add to the same slot.
        }
    }

    /** Hands every poll whose deadline has passed to {@code expire}; returns how many it took without failing. */
    int expireDue(Consumer<ParkedPoll> expire) {
        long now = Math.floorDiv(nanoClock.getAsLong(), slotNanos);
        int expired = 0;
        Map.Entry<Long, Set<ParkedPoll>> due;
        while ((due = pollsBySlot.firstEntry()) != null && due.getKey() <= now) {
            if (!pollsBySlot.remove(due.getKey(), due.getValue())) {
                continue;
            }
            for (ParkedPoll poll : due.getValue()) {
                try {
                    expire.accept(poll);
                    expired++;
                } catch (RuntimeException failure) {
                    // One poll's failure (e.g. its request completed meanwhile) must not leave the rest unexpired.
                    LOG.warn("expiring a poll failed", failure);
                }
            }
        }
        return expired;
    }

}
