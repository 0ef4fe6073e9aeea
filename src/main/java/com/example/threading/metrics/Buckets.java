package com.example.threading.metrics;

/** Bucket upper bounds of the native histograms. */
final class Buckets {

    /**
     * Latencies, 1 ms to a minute: the patterns' waits run from milliseconds to the 60 s a request may ask for, and the
     * experiments tell 1 s from 2 s (a fixed pool's second wave), so the seconds around them are split finer.
     */
    static final double[] SECONDS = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.25, 1.5, 2, 2.5, 5, 10,
            20, 30, 60};

    /** Sizes (e.g. polls answered by one long-poll batch), 1 to 50,000: events.maxParked is 20,000 by default. */
    static final double[] COUNTS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000};

    private Buckets() {
    }
}
