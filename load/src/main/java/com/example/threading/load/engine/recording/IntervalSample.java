package com.example.threading.load.engine.recording;

/**
 * One second (or so) of a phase: answers counted by kind, latency of the 2xx answers in ms, and the CPU
 * used by the server and by this tool in % of all cores (NaN when not measured).
 */
public record IntervalSample(double atSeconds, double lengthSeconds, long ok, long rejected503, long otherErrors,
                             double p50, double p99, double max, double serverCpuPercent, double toolCpuPercent) {
}
