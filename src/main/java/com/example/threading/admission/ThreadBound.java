package com.example.threading.admission;

import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.ServerFactory;

/**
 * How many requests the server can run at once, the number the default {@code admission.maxRequests} is derived
 * from ({@link AdmissionLimits#defaultMaxRequests}).
 *
 * <p>The seam for virtual threads: with platform threads the bound is {@code server.maxThreads}. A server that runs
 * requests on virtual threads has a different bound (how many virtual threads may run requests at once); in that
 * mode, give {@link AdmissionBundle} that bound instead of {@link #platformThreads}, so the default
 * comes from it and not from {@code maxThreads}.
 */
public final class ThreadBound {

    private ThreadBound() {
    }

    /** {@code server.maxThreads} of Dropwizard's {@code default} or {@code simple} server factory. */
    public static int platformThreads(ServerFactory serverFactory) {
        if (serverFactory instanceof AbstractServerFactory factory) {
            return factory.getMaxThreads();
        }
        throw new IllegalArgumentException("admission: cannot read maxThreads from server factory "
                + serverFactory.getClass().getName() + "; set admission.maxRequests explicitly or pass the thread bound");
    }
}
