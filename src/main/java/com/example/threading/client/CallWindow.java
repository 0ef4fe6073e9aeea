package com.example.threading.client;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the {@code calls} of one fan-out at most {@code width} at a time: {@link #open} starts the first
 * {@code width}, each call that ends starts the next, {@link #stop} starts no more (the fan-out was answered at its
 * timeout). Once no call runs and none will start, {@code drained} runs, exactly once: that is when the fan-out's
 * places are free again, not when it was answered (a call still waiting for its downstream holds its thread).
 *
 * <p>Starts never nest: a call that ends while its own start is still on the stack (an executor that refused it, a
 * future already complete) only records a free slot, and the thread already starting calls starts the next one in
 * its loop. The stack stays flat whatever {@code calls} is.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The Jetty thread that starts the fan-out calls {@link #open} once; the fan-out's timeout (Jersey's timeout
 *       thread) may call {@link #stop} at any time, and each call's {@code ended} runs on whichever thread ends the
 *       call, concurrently with all of these. A call's {@code ended} counts once however often it runs (a
 *       compare-and-set per call).</li>
 *   <li>The counters and flags are guarded by this window's monitor ({@code @GuardedBy("this")}): each of those threads
 *       changes them only inside {@code synchronized (this)}. {@code start} and {@code drained} run outside the
 *       monitor, on the thread that claimed them under it.</li>
 *   <li>Starter: at most one thread starts calls at a time, the one that set {@code starting}. A change made by another
 *       thread while it does happens-before that starter's next look under the monitor, so no free slot is lost;
 *       {@code drained} runs exactly once, claimed by setting {@code finished}.</li>
 * </ul>
 * {@code CallWindowLincheckTest} checks it over the interleavings of three calls whose ends are reported twice at once,
 * with and without a stop; {@code CallWindowTest} on real threads.
 */
final class CallWindow {

    private final int calls;
    private final int width;
    private final Call start;
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
    CallWindow(int calls, int width, Call start, Runnable drained) {
        if (calls < 1 || width < 1) {
            throw new IllegalArgumentException("calls and width must be at least 1, were " + calls + " and " + width);
        }
        this.calls = calls;
        this.width = width;
        this.start = start;
        this.drained = drained;
    }

    /** Starts the first {@code width} calls. */
    void open() {
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

    /** Starts no more calls; those running end as they will. */
    void stop() {
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

    /** Calls started so far. */
    synchronized int started() {
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
                if (ended.compareAndSet(false, true)) {
                    ended();
                }
            });
        }
    }

    /** One call of a fan-out. */
    @FunctionalInterface
    interface Call {
        /**
         * Starts the call without waiting for it. Must not throw: a call that cannot be started has ended, and says so
         * through {@code ended}, which must run when the call has ended, on any thread (later runs are ignored).
         */
        void start(Runnable ended);
    }
}
