package com.example.threading.events.stream.redis;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;

/**
 * The Redis stream's meters and timer, all named {@code events.redis.*} (the lag gauge is registered by
 * {@link RedisEventStream}).
 */
final class RedisStreamMetrics {

    /** Time from sending the publish script to its reply (successful publishes only). */
    final Timer publishLatency;
    /** Publishes the stream could not take: not connected, command timeout, script error. */
    final Meter publishFailures;
    /** Times the reader lost its connection (or could not make one) and tried again after its backoff. */
    final Meter reconnects;
    /**
     * Times the reader found ids missing between its last id and the next entry: the stream trimmed them while the
     * reader was cut off (or Redis lost them); clients of this instance do not get them.
     */
    final Meter gaps;
    /** Cursors the ring no longer held, answered from the stream with XRANGE. */
    final Meter historyReads;
    /** History reads that failed (Redis unreachable): those polls were answered {@code 503} with {@code Retry-After}. */
    final Meter historyReadFailures;

    RedisStreamMetrics(MetricRegistry registry) {
        publishLatency = registry.timer("events.redis.publish.latency");
        publishFailures = registry.meter("events.redis.publish.failures");
        reconnects = registry.meter("events.redis.reader.reconnects");
        gaps = registry.meter("events.redis.reader.gaps");
        historyReads = registry.meter("events.redis.history.reads");
        historyReadFailures = registry.meter("events.redis.history.failures");
    }
}
