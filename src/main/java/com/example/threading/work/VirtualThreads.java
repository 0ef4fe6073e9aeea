package com.example.threading.work;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

/**
 * The virtual-thread-per-task executor of {@code /work/virtual}, where the JDK has virtual threads. The service
 * compiles with {@code --release 17}, so the code that builds it is plain JDK 21 Java in a source set of its own
 * ({@code VirtualThreadExecutors}, under {@code src/main/java21}, compiled with {@code --release 21} into the same
 * jar), which this class loads only on JDK 21+. A jar built where no JDK 25 javac was (the Dockerfile's JDK 17 build
 * stage) has no such class; on JDK 21+ it takes the same three calls through method handles instead.
 */
final class VirtualThreads {

    private static final String JDK21_CLASS = "com.example.threading.work.VirtualThreadExecutors";

    private VirtualThreads() {
    }

    /** A new executor starting one virtual thread, named {@code namePrefix + n}, per task; empty below JDK 21. */
    static Optional<ExecutorService> newThreadPerTaskExecutor(String namePrefix) {
        if (missing().isPresent()) {
            return Optional.empty();
        }
        try {
            if (VirtualThreads.class.getResource("VirtualThreadExecutors.class") == null) {
                return Optional.of(throughMethodHandles(namePrefix));
            }
            @SuppressWarnings("unchecked") // VirtualThreadExecutors implements Function<String, ExecutorService>
            Function<String, ExecutorService> executors = (Function<String, ExecutorService>)
                    Class.forName(JDK21_CLASS).getDeclaredConstructor().newInstance();
            return Optional.of(executors.apply(namePrefix));
        } catch (Throwable e) {
            throw new IllegalStateException("JDK " + Runtime.version() + " should have virtual threads", e);
        }
    }

    /** Why this JVM has no virtual-thread executor. */
    static Optional<String> missing() {
        if (Runtime.version().feature() < 21) {
            return Optional.of("virtual threads need JDK 21 or newer; this service runs on Java "
                    + Runtime.version().feature() + " (" + System.getProperty("java.vm.name") + ")");
        }
        return Optional.empty();
    }

    /** {@code VirtualThreadExecutors.apply}, for a jar built without it. */
    private static ExecutorService throughMethodHandles(String namePrefix) throws Throwable {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> builderClass = Class.forName("java.lang.Thread$Builder");
        Object builder = lookup.findStatic(Thread.class, "ofVirtual",
                MethodType.methodType(Class.forName("java.lang.Thread$Builder$OfVirtual"))).invoke();
        builder = lookup.findVirtual(builderClass, "name",
                MethodType.methodType(builderClass, String.class, long.class)).invoke(builder, namePrefix, 0L);
        ThreadFactory factory = (ThreadFactory) lookup.findVirtual(builderClass, "factory",
                MethodType.methodType(ThreadFactory.class)).invoke(builder);
        return (ExecutorService) lookup.findStatic(Executors.class, "newThreadPerTaskExecutor",
                MethodType.methodType(ExecutorService.class, ThreadFactory.class)).invoke(factory);
    }
}
