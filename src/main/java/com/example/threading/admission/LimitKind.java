package com.example.threading.admission;

/**
 * How admission control decides how many requests may run at once. In config.yml: {@code fixed} or
 * {@code gradient2}.
 */
public enum LimitKind {

    /** {@code maxRequests} places, {@code maxQueued} waiting for at most {@code maxQueueTime} (Jetty's QoSHandler). */
    FIXED,

    /**
     * An adaptive limit (Netflix concurrency-limits' Gradient2): it follows the latency of the requests, shrinks when
     * they slow down and grows while they do not, between a floor and {@code maxRequests}; no queue, a request over
     * the limit is refused at once.
     */
    GRADIENT2
}
