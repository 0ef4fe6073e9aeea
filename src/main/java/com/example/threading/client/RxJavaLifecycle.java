package com.example.threading.client;

import com.codahale.metrics.Meter;
import io.dropwizard.lifecycle.Managed;
import io.reactivex.functions.Consumer;
import io.reactivex.plugins.RxJavaPlugins;
import io.reactivex.schedulers.Schedulers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RxJava 2's process-wide state, tied to the service's lifecycle. Its {@code Schedulers} class starts daemon threads
 * of its own when it loads ({@code RxSchedulerPurge}, {@code RxCachedWorkerPoolEvictor}), though {@code via=rxjava}
 * runs only on the managed pool: they stop with the service. And an error RxJava cannot deliver (a failure after its
 * subscriber left, a task an executor refused) goes to a global handler, which by default prints it to stderr and
 * hands it to the thread's uncaught-exception handler: here it is logged at ERROR with its stack trace and counted
 * ({@code client.fanout.rxjava.dropped}), since {@code /fanout} is built so that nothing is dropped.
 *
 * <p>The handler runs on whichever thread RxJava drops an error on. It is installed only where no other is (RxJava's
 * plugins are global to the class loader) and removed on stop only if it is still this one.
 */
final class RxJavaLifecycle implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(RxJavaLifecycle.class);

    private final Consumer<Throwable> handler;

    RxJavaLifecycle(Meter dropped) {
        this.handler = error -> {
            dropped.mark();
            LOG.error("RxJava dropped an error it could not deliver: a fan-out call may never end", error);
        };
    }

    @Override
    public void start() {
        Schedulers.start();
        if (RxJavaPlugins.getErrorHandler() == null) {
            RxJavaPlugins.setErrorHandler(handler);
        }
    }

    @Override
    public void stop() {
        if (RxJavaPlugins.getErrorHandler() == handler) {
            RxJavaPlugins.setErrorHandler(null);
        }
        Schedulers.shutdown();
    }
}
