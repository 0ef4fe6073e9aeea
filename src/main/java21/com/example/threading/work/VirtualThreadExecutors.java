package com.example.threading.work;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/** Builds {@code /work/virtual}'s executor (JDK 21+): one new virtual thread per task, named {@code namePrefix + n}. */
final class VirtualThreadExecutors implements Function<String, ExecutorService> {

    /** A new executor that starts a virtual thread named {@code namePrefix} and a counter from 0 for each task. */
    @Override
    public ExecutorService apply(String namePrefix) {
        return Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(namePrefix, 0).factory());
    }
}
