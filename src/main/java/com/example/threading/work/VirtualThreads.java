package com.example.threading.work;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * Builds a virtual-thread-per-task executor on JDK 21+ without needing JDK 21 to compile: the service is
 * built with {@code --release 17}, so the JDK 21 API is looked up at run time.
 */
final class VirtualThreads {

    private VirtualThreads() {
    }

    /** A new executor starting one virtual thread, named {@code namePrefix + n}, per task; empty before JDK 21. */
    static Optional<ExecutorService> newThreadPerTaskExecutor(String namePrefix) {
        if (Runtime.version().feature() < 21) {
            return Optional.empty();
        }
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            Class<?> builderClass = Class.forName("java.lang.Thread$Builder");
            Object builder = lookup.findStatic(Thread.class, "ofVirtual",
                    MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual"))).invoke();
            builder = lookup.findVirtual(builderClass, "name",
                    MethodType.methodType(builderClass, String.class, long.class)).invoke(builder, namePrefix, 0L);
            ThreadFactory factory = (ThreadFactory) lookup.findVirtual(builderClass, "factory",
                    MethodType.methodType(ThreadFactory.class)).invoke(builder);
            ExecutorService executor = (ExecutorService) lookup.findStatic(Executors.class, "newThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class, ThreadFactory.class)).invoke(factory);
            return Optional.of(executor);
        } catch (Throwable e) {
            throw new IllegalStateException("JDK " + Runtime.version() + " should have virtual threads", e);
        }
    }
}
