package com.example.threading.events.hub;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@link PollDeadlines} with a seeded bug, for {@link PollDeadlinesLincheckTest}: {@link #add} puts the poll in its
 * slot's set and returns without looking whether the set is still in the map, so a sweep that took the set between the
 * lookup and the add (and walked it already) leaves the poll in a set no sweep will see.
 */
final class PollDeadlinesNoSecondLookFixture implements PollDeadlinesLincheckTest.Deadlines {

    private final ConcurrentSkipListMap<Long, Set<ParkedPoll>> pollsBySlot = new ConcurrentSkipListMap<>();
    private final long slotNanos;
    private final LongSupplier nanoClock;

    PollDeadlinesNoSecondLookFixture(long slotMs, LongSupplier nanoClock) {
        this.slotNanos = TimeUnit.MILLISECONDS.toNanos(slotMs);
        this.nanoClock = nanoClock;
    }

    @Override
    public void add(ParkedPoll poll, long timeoutMs) {
        long deadline = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        long slot = -Math.floorDiv(-deadline, slotNanos);
        poll.deadlineSlot(slot);
        pollsBySlot.computeIfAbsent(slot, t -> ConcurrentHashMap.newKeySet()).add(poll); // the seeded bug: no second look
    }

    @Override
    public void remove(ParkedPoll poll) {
        Set<ParkedPoll> polls = pollsBySlot.get(poll.deadlineSlot());
        if (polls != null) {
            polls.remove(poll);
        }
    }

    @Override
    public int expireDue(Consumer<ParkedPoll> expire) {
        long now = Math.floorDiv(nanoClock.getAsLong(), slotNanos);
        int expired = 0;
        Map.Entry<Long, Set<ParkedPoll>> due;
        while ((due = pollsBySlot.firstEntry()) != null && due.getKey() <= now) {
            if (!pollsBySlot.remove(due.getKey(), due.getValue())) {
                continue;
            }
            for (ParkedPoll poll : due.getValue()) {
                expire.accept(poll);
                expired++;
            }
        }
        return expired;
    }
}
