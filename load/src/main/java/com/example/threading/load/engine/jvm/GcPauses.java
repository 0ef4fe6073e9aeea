package com.example.threading.load.engine.jvm;

/**
 * The stop-the-world GC pauses of one JVM over some stretch of time: how many, their total and the longest (ms).
 */
public record GcPauses(long count, double totalMs, double maxMs) {
}
