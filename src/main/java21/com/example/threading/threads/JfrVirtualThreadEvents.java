package com.example.threading.threads;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import java.time.Duration;
import jdk.jfr.consumer.RecordingStream;

/**
 * Virtual threads' JFR events as metrics (JDK 21+), read from a {@link RecordingStream} of this JVM while it runs:
 * {@code jdk.VirtualThreadPinned} (a park that kept its carrier, longer than the threshold) and
 * {@code jdk.VirtualThreadSubmitFailed} (a virtual thread the scheduler could not start or continue). The stream
 * records nothing else, and JFR hands its events to the callbacks about once a second, on a thread of its own.
 */
final class JfrVirtualThreadEvents implements VirtualThreadEvents {

    /** Starts the stream on a thread of JFR's; closing what it returns ends it. */
    @Override
    public AutoCloseable start(Duration pinnedThreshold, Timer pinned, Meter submitFailed) {
        RecordingStream stream = new RecordingStream();
        stream.enable("jdk.VirtualThreadPinned").withThreshold(pinnedThreshold).withoutStackTrace();
        stream.enable("jdk.VirtualThreadSubmitFailed");
        stream.onEvent("jdk.VirtualThreadPinned", event -> pinned.update(event.getDuration()));
        stream.onEvent("jdk.VirtualThreadSubmitFailed", event -> submitFailed.mark());
        stream.startAsync();
        return stream;
    }
}
