package com.example.threading.jetty.virtual;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;

/**
 * The {@code serverVirtualThreads} section of config.yml: whether the application connector runs its requests on
 * virtual threads, and how many of them may run at once.
 */
public final class ServerVirtualThreadsConfiguration {

    /** Off: requests run on Jetty's platform worker pool ({@code server.maxThreads}). On: one virtual thread each (JDK 21+). */
    @JsonProperty
    private boolean enabled = false;

    /**
     * Most application requests (Jetty tasks) running on virtual threads at once; the rest wait, each on its own
     * (cheap, parked) virtual thread, for one to finish. Independent of {@code server.maxThreads}.
     */
    @Min(1)
    @Max(1_000_000)
    @JsonProperty
    private int maxConcurrent = 10_000;

    /** Whether the application connector's requests run on virtual threads. */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * How many requests may run on virtual threads at once: the bound admission control should start from when
     * {@link #isEnabled()} (the platform pool's {@code server.maxThreads} no longer bounds anything then).
     */
    public int getMaxConcurrent() {
        return maxConcurrent;
    }
}
