package com.example.threading.work;

/**
 * What every {@code /work/{pattern}} answers: which pattern ran, how long it was asked to wait and really
 * waited, and the thread that did the waiting.
 */
public record WorkResult(String pattern, long requestedMs, long waitedMs, String thread, boolean virtualThread) {
}
