package com.example.threading.threads;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import io.dropwizard.validation.MaxDuration;
import io.dropwizard.validation.MinDuration;
import java.util.concurrent.TimeUnit;

/** The {@code threads} section of config.yml: which virtual threads' JFR events become metrics (JDK 21+). */
public final class ThreadsConfiguration {

    /** On: a JFR stream counts pinned parks and failed submits of virtual threads while the service runs. */
    @JsonProperty
    private boolean virtualThreadEvents = true;

    /** Shortest pinned park counted: JFR's threshold for {@code jdk.VirtualThreadPinned} (its default is 20 ms). */
    @MinDuration(value = 0, unit = TimeUnit.MILLISECONDS)
    @MaxDuration(value = 10, unit = TimeUnit.SECONDS)
    @JsonProperty
    private Duration pinnedThreshold = Duration.milliseconds(20);

    /** Whether virtual threads' JFR events are counted. */
    public boolean isVirtualThreadEvents() {
        return virtualThreadEvents;
    }

    /** The shortest pinned park counted. */
    public Duration getPinnedThreshold() {
        return pinnedThreshold;
    }
}
