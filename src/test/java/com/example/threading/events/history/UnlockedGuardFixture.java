package com.example.threading.events.history;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A guard with a seeded bug, for {@link EventHistoryLincheckTest}: the lock removed. It locks nothing and tells every
 * thread that it holds it, so {@link EventHistory}'s check of its guard passes while an append and a read interleave.
 */
final class UnlockedGuardFixture extends ReentrantLock {

    @Override
    public void lock() {
        // the seeded bug: no lock taken
    }

    @Override
    public void unlock() {
        // nothing was taken
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return true;
    }
}
