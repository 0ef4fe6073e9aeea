package com.example.threading.jetty.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link BoundedVirtualThreadExecutor}'s permits over every interleaving Lincheck's model checker explores (up to its
 * bound of {@value #INVOCATIONS}): a bound of one, three tasks handed over at once, each on a thread of its own (platform
 * threads here: the contract is the permits', whatever the threads), and one of those threads interrupted at whatever
 * point the interleaving puts it. At no instant do two tasks run; at the end every permit is back, none more (running
 * is 0), and each task ran or, interrupted while waiting, was dropped. The scenario fails on Jetty 12.1's
 * {@code VirtualThreadPool} bug, a permit given back by an interrupted waiter that took none
 * ({@link BoundedVirtualThreadExecutorReleaseOnInterruptFixture}).
 */
class BoundedVirtualThreadExecutorLincheckTest {

    private static final int INVOCATIONS = 500;
    private static final int TASKS = 3;

    @Test
    void atMostOneRunsAndAnInterruptedWaiterGivesNoPermitBack() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            ThreadPerTask threads = new ThreadPerTask();
            BoundedVirtualThreadExecutor executor = new BoundedVirtualThreadExecutor(threads, 1);
            scenario(executor, threads, executor::running);
        });
    }

    @Test
    void aPermitGivenBackByAnInterruptedWaiterIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            ThreadPerTask threads = new ThreadPerTask();
            BoundedVirtualThreadExecutorReleaseOnInterruptFixture executor =
                    new BoundedVirtualThreadExecutorReleaseOnInterruptFixture(threads, 1);
            scenario(executor, threads, executor::running);
        }))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).containsAnyOf("permits", "at once"));
    }

    private static void scenario(Executor executor, ThreadPerTask threads, IntSupplier running) {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<String> overlap = new AtomicReference<>();
        Runnable task = () -> {
            if (inside.incrementAndGet() > 1) {
                overlap.compareAndSet(null, inside.get() + " tasks at once, with a bound of one");
            }
            ran.incrementAndGet();
            inside.decrementAndGet();
        };
        for (int i = 0; i < TASKS; i++) {
            executor.execute(task);
        }
        Thread interrupter = new Thread(() -> threads.started().get(TASKS - 1).interrupt());
        interrupter.start();
        join(interrupter);
        threads.started().forEach(BoundedVirtualThreadExecutorLincheckTest::join);
        if (overlap.get() != null) {
            throw new AssertionError(overlap.get());
        }
        if (running.getAsInt() != 0) {
            throw new AssertionError("running is " + running.getAsInt() + " after every task ended: permits "
                    + (running.getAsInt() < 0 ? "given back that were never taken" : "never given back"));
        }
        if (ran.get() < TASKS - 1) {
            throw new AssertionError("only " + ran.get() + " of " + TASKS + " tasks ran; one interrupt drops at most one");
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
    }

    /** A new platform thread per task, each kept so the scenario can join it. */
    private static final class ThreadPerTask extends AbstractExecutorService {
        private final List<Thread> started = new ArrayList<>();

        @Override
        public void execute(Runnable command) {
            Thread thread = new Thread(command);
            synchronized (started) {
                started.add(thread);
            }
            thread.start();
        }

        List<Thread> started() {
            synchronized (started) {
                return List.copyOf(started);
            }
        }

        @Override
        public void shutdown() {
        }

        @Override
        public List<Runnable> shutdownNow() {
            return List.of();
        }

        @Override
        public boolean isShutdown() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return true;
        }
    }
}
