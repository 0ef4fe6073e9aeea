package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link CallWindow}'s contract over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): three calls, one at a time, each on a thread of its own and, once over, its
 * end reported on two threads at once (as its answer and its cancellation may), and the fan-out's timeout stopping the window at any point or not at all. Never
 * more calls run than the width; {@code drained} runs exactly once, when no call runs; unstopped, every call starts.
 * The scenario fails on a seeded bug: a call's {@code ended} counted by a read and then a write instead of a
 * compare-and-set ({@link CallWindowGetThenSetFixture}), which frees a slot twice.
 */
class CallWindowLincheckTest {

    private static final int INVOCATIONS = 500;
    private static final int CALLS = 3;
    private static final int WIDTH = 1;

    /** What the scenario drives: CallWindow, or its seeded variant. */
    interface Window {
        void open();

        void stop();

        int started();
    }

    /** How the scenario builds a window. */
    @FunctionalInterface
    interface Made {
        Window make(int calls, int width, CallWindow.Call start, Runnable drained);
    }

    @Test
    void neverWiderThanItsWidthAndDrainedOnceWithEveryCallStarted() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(false, CallWindowLincheckTest::real));
    }

    @Test
    void stoppedAtAnyPointItStillDrainsOnceAndNeverWider() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(true, CallWindowLincheckTest::real));
    }

    @Test
    void anEndCountedByAReadThenAWriteIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(false, (calls, width, start, drained) -> new CallWindowGetThenSetFixture(calls, width, start, drained))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).containsAnyOf("running at once", "drained", "started"));
    }

    private static Window real(int calls, int width, CallWindow.Call start, Runnable drained) {
        CallWindow window = new CallWindow(calls, width, start, drained);
        return new Window() {
            @Override
            public void open() {
                window.open();
            }

            @Override
            public void stop() {
                window.stop();
            }

            @Override
            public int started() {
                return window.started();
            }
        };
    }

    /** One interleaving: the window opened (and stopped, if {@code stopping}) while its calls end; then the contract. */
    private static void scenario(boolean stopping, Made made) {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger drainedTimes = new AtomicInteger();
        AtomicReference<String> broken = new AtomicReference<>();
        List<Thread> enders = new ArrayList<>();
        CallWindow.Call call = ended -> {
            if (running.incrementAndGet() > WIDTH) {
                broken.compareAndSet(null, running.get() + " calls running at once, with a width of " + WIDTH);
            }
            // The call runs on a thread of its own; when it is over, its answer (on that thread) and its
            // cancellation (on another) both report its end.
            Thread callThread = new Thread(() -> {
                running.decrementAndGet();
                Thread cancellation = new Thread(ended);
                synchronized (enders) {
                    enders.add(cancellation);
                }
                cancellation.start();
                ended.run();
            });
            synchronized (enders) {
                enders.add(callThread);
            }
            callThread.start();
        };
        Window window = made.make(CALLS, WIDTH, call, () -> {
            if (running.get() != 0) {
                broken.compareAndSet(null, "drained with " + running.get() + " calls running");
            }
            drainedTimes.incrementAndGet();
        });
        Interleavings.onThreads(stopping ? List.of(window::open, window::stop) : List.of(window::open));
        Interleavings.joinAll(enders);
        if (broken.get() != null) {
            throw new AssertionError(broken.get());
        }
        if (drainedTimes.get() != 1) {
            throw new AssertionError("drained " + drainedTimes.get() + " times");
        }
        if (!stopping && window.started() != CALLS) {
            throw new AssertionError(window.started() + " of " + CALLS + " calls started, unstopped");
        }
    }
}
