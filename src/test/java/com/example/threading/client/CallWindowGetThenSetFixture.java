package com.example.threading.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link CallWindow} with a seeded bug, for {@link CallWindowLincheckTest}: a call's {@code ended} counts once by a
 * read and then a write instead of a compare-and-set, so a call that ends on two threads at once (its answer and its
 * cancellation) can count twice and free a slot it does not hold.
 */
final class CallWindowGetThenSetFixture implements CallWindowLincheckTest.Window {

    private final int calls;
    private final int width;
    private final CallWindow.Call start;
    private final Runnable drained;

    @GuardedBy("this")
    private int freeSlots;
    @GuardedBy("this")
    private int started;
    @GuardedBy("this")
    private int running;
    @GuardedBy("this")
    private boolean stopped;
    @GuardedBy("this")
    private boolean starting;
    @GuardedBy("this")
    private boolean finished;

    /**
     * @param calls   calls to make, at least 1
     * @param width   most calls running at once, at least 1
     * @param start   starts one call
     * @param drained runs once, when no call runs and none will start
     */
    CallWindowGetThenSetFixture(int calls, int width, CallWindow.Call start, Runnable drained) {
        if (calls < 1 || width < 1) {
            throw new IllegalArgumentException("calls and width must be at least 1, were " + calls + " and " + width);
        }
        this.calls = calls;
        this.width = width;
        this.start = start;
        this.drained = drained;
    }

    @Override
    public void open() {
        synchronized (this) {
            if (freeSlots != 0 || started != 0) {
                throw new IllegalStateException("a call window opens once");
            }
            freeSlots = width;
            if (!becomeStarter()) {
                return;
            }
        }
        startWhatFits();
    }

    /** One started call has ended: starts the next, if any is left and the window is not stopped. */
    private void ended() {
        synchronized (this) {
            running--;
            freeSlots++;
            if (!becomeStarter()) {
                return;
            }
        }
        startWhatFits();
    }

    @Override
    public void stop() {
        synchronized (this) {
            stopped = true;
            if (!becomeStarter()) {
                return;
            }
        }
        startWhatFits();
    }

    /**
     * After a change under the monitor: whether the calling thread is now the starter, false when another thread is
     * already starting calls (it looks again before it stops, so it sees the change).
     */
    @GuardedBy("this")
    private boolean becomeStarter() {
        if (starting) {
            return false;
        }
        starting = true;
        return true;
    }

    @Override
    public synchronized int started() {
        return started;
    }

    /** Called by the one thread that set {@code starting}; clears it when there is nothing left to start. */
    private void startWhatFits() {
        while (true) {
            boolean startOne;
            synchronized (this) {
                if (freeSlots == 0 || started == calls || stopped) {
                    starting = false;
                    if (running > 0 || finished || (started < calls && !stopped)) {
                        return;
                    }
                    finished = true;
                    startOne = false;
                } else {
                    freeSlots--;
                    running++;
                    started++;
                    startOne = true;
                }
            }
            if (!startOne) {
                drained.run();
                return;
            }
            AtomicBoolean ended = new AtomicBoolean();
            start.start(() -> {
                if (!ended.get()) { // the seeded bug: a read, then a write, instead of the compare-and-set
                    ended.set(true);
                    ended();
                }
            });
        }
    }
}
