package com.example.threading.threads;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import java.time.Duration;

/** Counts virtual threads' JFR events into metrics while the service runs (JDK 21+). */
interface VirtualThreadEvents {

    /**
     * Starts a JFR stream that times into {@code pinned} every park that pinned its carrier for at least
     * {@code pinnedThreshold} and marks {@code submitFailed} for every virtual thread the scheduler could not start;
     * closing what it returns ends the stream.
     */
    AutoCloseable start(Duration pinnedThreshold, Timer pinned, Meter submitFailed);
}
