package com.example.threading.events.websocket;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The bound on how fast one client may send: a token bucket of {@code perSecond} tokens, full at the start and refilled
 * continuously, one token per message. A client may send a burst of {@code perSecond} messages, then one every
 * {@code 1/perSecond} seconds.
 *
 * <p>Used by one thread at a time: a socket's messages are read one after the other (the next is demanded once the
 * last is handled), and Jetty's demand hands the socket from one reading thread to the next with a happens-before.
 */
final class MessageRate {

    private static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final long perSecond;
    private final LongSupplier nanoClock;
    /** Tokens, in units of 1/{@link #SECOND_NANOS} of a token so the refill needs no division per nanosecond. */
    private long scaledTokens;
    private long lastNanos;

    MessageRate(int perSecond, LongSupplier nanoClock) {
        this.perSecond = perSecond;
        this.nanoClock = nanoClock;
        this.scaledTokens = perSecond * SECOND_NANOS;
        this.lastNanos = nanoClock.getAsLong();
    }

    /** Takes a token for one message; false when the client sends faster than the bound. */
    boolean tryTake() {
        long now = nanoClock.getAsLong();
        long elapsed = Math.max(0, now - lastNanos);
        lastNanos = now;
        long full = perSecond * SECOND_NANOS;
        // One second refills the bucket from empty: a longer gap adds nothing more, and the product stays small.
        scaledTokens = Math.min(full, scaledTokens + Math.min(elapsed, SECOND_NANOS) * perSecond);
        if (scaledTokens < SECOND_NANOS) {
            return false;
        }
        scaledTokens -= SECOND_NANOS;
        return true;
    }
}
