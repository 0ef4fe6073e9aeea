package com.example.threading.client;

import java.util.concurrent.Semaphore;

/**
 * Places for client calls in flight, shared by every fan-out: a fan-out takes the places it needs all at once or
 * none ({@link #tryTake}), and gives them back when its calls have ended ({@link #give}). A refusal is the caller's
 * to answer (503 with Retry-After); nothing waits here.
 *
 * <p>Why places, not the pool's queue: a {@code ThreadPoolExecutor} refuses a task only when its queue is full, and
 * what it refuses is lost to whoever submitted it from another thread (RxJava drops it; a stage chained to it never
 * runs). Counting places before anything is submitted keeps the pool below what it would refuse, and refuses whole
 * fan-outs, at the door, instead of single calls deep inside one.
 *
 * <p>Thread-safety: every method may be called from any thread, any number at once. The places are a {@link Semaphore}:
 * {@link #tryTake} takes all it asks for or nothing, atomically, and never waits; a {@link #give} happens-before the
 * {@link #tryTake} that reuses its places. {@link #inUse} is a snapshot, stale as soon as it returns.
 * {@code FanoutConcurrencyTest} checks it through the service: twelve fan-outs at once, each admitted whole or refused
 * whole, and no place left taken.
 */
final class CallPlaces {

    private final int capacity;
    private final Semaphore free;

    CallPlaces(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.free = new Semaphore(capacity);
    }

    /** Most places in use at once. */
    int capacity() {
        return capacity;
    }

    /** Takes {@code places}, all or none: false, with nothing taken, when fewer are free or more than {@link #capacity}. */
    boolean tryTake(int places) {
        return places >= 1 && places <= capacity && free.tryAcquire(places);
    }

    /** Gives back {@code places} taken by {@link #tryTake}. */
    void give(int places) {
        free.release(places);
    }

    /** Places taken and not yet given back. */
    int inUse() {
        return capacity - free.availablePermits();
    }
}
