package com.example.threading.longpoll;

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
 * The polls' timeouts, kept by the hub rather than by Jetty: deadlines rounded up to a tick, one concurrent set per
 * tick, and one sweep per tick that expires the sets whose tick has passed.
 *
 * <p>Why not Jetty's own async timeout: Jetty schedules it in the server's one {@code ScheduledThreadPoolExecutor}
 * and cancels it when the request completes, so the 20,000 answers of one batch all remove a task from one heap
 * behind one lock (a lock profile of such a batch put 56–87 % of its contended lock time there). Here adding a poll
 * and forgetting it touch only the concurrent set of its tick.
 *
 * <p>A deadline is never early: it expires at the first sweep at or after its tick, so at most one tick (plus the
 * sweep's scheduling delay) late.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Request threads call {@link #add} and {@link #remove} concurrently, from any thread; each touches the set of
 *       one tick through the concurrent map.</li>
 *   <li>One thread at a time calls {@link #expireDue} (the hub's scheduled sweep). It takes a due tick's set out of
 *       the map before it walks it, so a set is walked once. An {@link #add} that raced with that removal may find its
 *       set taken: it adds the poll again to a fresh set of the same tick, which the next sweep expires. So a poll
 *       can be handed to {@code expire} twice, and {@code expire} must be idempotent (the hub's claim on a poll makes
 *       it so); a poll removed before its tick was taken is never handed over.</li>
 * </ul>
 */
final class PollDeadlines {

    private static final Logger LOG = LoggerFactory.getLogger(PollDeadlines.class);

    private final ConcurrentSkipListMap<Long, Set<ParkedPoll>> pollsByTick = new ConcurrentSkipListMap<>();
    private final long tickNanos;
    private final LongSupplier nanoClock;

    /** Deadlines rounded up to {@code tickMs}, read against {@code nanoClock} (e.g. {@code System::nanoTime}). */
    PollDeadlines(long tickMs, LongSupplier nanoClock) {
        if (tickMs <= 0) {
            throw new IllegalArgumentException("tick must be positive, not " + tickMs + " ms");
        }
        this.tickNanos = TimeUnit.MILLISECONDS.toNanos(tickMs);
        this.nanoClock = nanoClock;
    }

    /** Expires {@code poll} {@code timeoutMs} from now, unless it is {@link #remove}d before. */
    void add(ParkedPoll poll, long timeoutMs) {
        long deadline = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long tick = -Math.floorDiv(-deadline, tickNanos); // rounded up: never early
        poll.deadlineTick(tick);
        while (true) {
            Set<ParkedPoll> polls = pollsByTick.computeIfAbsent(tick, t -> ConcurrentHashMap.newKeySet());
            polls.add(poll);
            if (pollsByTick.get(tick) == polls) {
                return; // still in the map: the sweep that takes this set will see the poll
            }
            // A sweep took the set between computeIfAbsent and add, and may have walked it already: add again.
        }
    }

    /** Forgets {@code poll} (it completed); harmless if it was never added or has expired. */
    void remove(ParkedPoll poll) {
        Set<ParkedPoll> polls = pollsByTick.get(poll.deadlineTick());
        if (polls != null) {
            polls.remove(poll);
            // An emptied set stays until its tick is swept: removing it here could race with an add to the same tick.
        }
    }

    /** Hands every poll whose deadline has passed to {@code expire}; returns how many it took without failing. */
    int expireDue(Consumer<ParkedPoll> expire) {
        long now = Math.floorDiv(nanoClock.getAsLong(), tickNanos);
        int expired = 0;
        Map.Entry<Long, Set<ParkedPoll>> due;
        while ((due = pollsByTick.firstEntry()) != null && due.getKey() <= now) {
            if (!pollsByTick.remove(due.getKey(), due.getValue())) {
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
