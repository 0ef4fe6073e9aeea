package com.example.threading.load.scenario;

import java.time.Duration;

/**
 * The moment (on {@link System#nanoTime()}) by which a scenario must be done; later parts are skipped with a
 * note once it has passed, and every wait is cut at it.
 */
public record Deadline(long nanos) {

    /** The deadline {@code limit} from now. */
    public static Deadline after(Duration limit) {
        return new Deadline(System.nanoTime() + limit.toNanos());
    }

    /** Whether the deadline has passed. */
    public boolean isUp() {
        return System.nanoTime() - nanos >= 0;
    }

    /** The earlier of this deadline and {@code duration} from now, as a {@link System#nanoTime()} value. */
    public long within(Duration duration) {
        long candidate = System.nanoTime() + duration.toNanos();
        return candidate - nanos < 0 ? candidate : nanos;
    }
}
