package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The sockets' work drained from one queue by a bounded number of container tasks. */
class DrainingExecutorTest {

    @Test
    void aBusyQueueHandsTheContainerNoMoreTasksThanItHasDrainers() {
        Queue<Runnable> container = new ArrayDeque<>(); // a container that runs what it is handed when told to
        DrainingExecutor executor = new DrainingExecutor(container::add, 2);
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int task = i;
            executor.execute(() -> ran.add(task));
        }
        assertThat(container).as("two drainers for 100 tasks").hasSize(2);

        container.poll().run();
        assertThat(ran).as("the first drainer ran every task queued, in order").hasSize(100).isSorted();
        container.poll().run();
        assertThat(ran).as("the second found nothing left").hasSize(100);

        executor.execute(() -> ran.add(100));
        assertThat(container).as("both gave up their place: a new task gets a drainer").hasSize(1);
        container.poll().run();
        assertThat(ran).hasSize(101);
    }

    @Test
    void aTaskThatFailsDoesNotStopTheOnesAfterIt() {
        Queue<Runnable> container = new ArrayDeque<>();
        DrainingExecutor executor = new DrainingExecutor(container::add, 1);
        AtomicInteger ran = new AtomicInteger();
        executor.execute(() -> {
            throw new IllegalStateException("a bug in one socket's task");
        });
        executor.execute(ran::incrementAndGet);
        container.poll().run();
        assertThat(ran).hasValue(1);
        assertThat(container).isEmpty();
    }

    @Test
    void whenTheContainerTakesNoMoreTasksTheCallerRunsThem() {
        DrainingExecutor executor = new DrainingExecutor(task -> {
            throw new RejectedExecutionException("stopping");
        }, 2);
        List<String> ranOn = new ArrayList<>();
        executor.execute(() -> ranOn.add(Thread.currentThread().getName()));
        executor.execute(() -> ranOn.add(Thread.currentThread().getName()));
        assertThat(ranOn).containsExactly(Thread.currentThread().getName(), Thread.currentThread().getName());
    }

    @Test
    void whenTheContainerIsFullARunningDrainerTakesTheTaskNotTheCaller() {
        Queue<Runnable> accepted = new ArrayDeque<>();
        boolean[] full = {false};
        DrainingExecutor executor = new DrainingExecutor(task -> {
            if (full[0]) {
                throw new RejectedExecutionException("queue full");
            }
            accepted.add(task);
        }, 2);
        List<String> ran = new ArrayList<>();
        executor.execute(() -> ran.add("first"));
        full[0] = true;
        executor.execute(() -> ran.add("second"));
        assertThat(ran).as("a drainer is on its way: the caller runs nothing").isEmpty();
        accepted.poll().run();
        assertThat(ran).containsExactly("first", "second");
        executor.execute(() -> ran.add("third"));
        assertThat(ran).as("no drainer left: the caller drains").containsExactly("first", "second", "third");
    }

    @Test
    void underConcurrencyEveryTaskRunsOnceAndNoMoreDrainersRunThanAllowed() throws InterruptedException {
        ExecutorService container = Executors.newFixedThreadPool(8);
        ExecutorService producers = Executors.newFixedThreadPool(4);
        try {
            DrainingExecutor executor = new DrainingExecutor(container, 3);
            int perProducer = 20_000;
            CountDownLatch done = new CountDownLatch(4 * perProducer);
            AtomicInteger running = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            AtomicInteger runs = new AtomicInteger();
            for (int p = 0; p < 4; p++) {
                producers.execute(() -> {
                    for (int i = 0; i < perProducer; i++) {
                        executor.execute(() -> {
                            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                            runs.incrementAndGet();
                            running.decrementAndGet();
                            done.countDown();
                        });
                    }
                });
            }
            assertThat(done.await(60, TimeUnit.SECONDS)).as("every task ran: none left without a drainer").isTrue();
            assertThat(runs).hasValue(4 * perProducer);
            assertThat(mostAtOnce.get()).isBetween(1, 3);
        } finally {
            producers.shutdownNow();
            container.shutdownNow();
        }
    }
}
