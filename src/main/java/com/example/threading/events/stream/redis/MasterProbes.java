package com.example.threading.events.stream.redis;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which masters of a Redis Cluster answer: a {@code PING} to every master that holds slots, through the stream's
 * command connection (which also opens the node's connection, so the first publish to it is not refused as "not
 * connected"), and what did not answer, and since when none has.
 *
 * <p>Thread-safety: {@link #probe} runs on the stream's reader thread, one round after the other; the answers complete
 * on lettuce's threads and update a concurrent map and volatile fields, which the health check and gauges read from
 * any thread. {@code RedisClusterFaultTest} checks it with a master stopped and started again: the gauges and the
 * health check, read meanwhile, name it unreachable, then reachable.
 */
final class MasterProbes {

    private static final Logger LOG = LoggerFactory.getLogger(MasterProbes.class);

    private final long timeoutMs;
    /** Masters that did not answer their last probe, and why. */
    private final Map<String, String> unreachable = new ConcurrentHashMap<>();
    private volatile int masters;
    private volatile Instant downSince = Instant.now();

    /** Probes that wait {@code timeoutMs} for each master's answer. */
    MasterProbes(long timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    /** Pings every master of {@code connection}'s slot map; the answers arrive later, on lettuce's threads. */
    void probe(StatefulRedisClusterConnection<String, String> connection) {
        List<RedisClusterNode> upstreams = connection.getPartitions().stream()
                .filter(node -> node.is(RedisClusterNode.NodeFlag.UPSTREAM) && !node.getSlots().isEmpty())
                .toList();
        masters = upstreams.size();
        // A master no longer in the slot map (moved, or listed under another address after a restart) is not probed
        // any more: its last failure must not count for ever.
        unreachable.keySet().retainAll(upstreams.stream().map(MasterProbes::address).toList());
        for (RedisClusterNode node : upstreams) {
            String address = address(node);
            connection.getConnectionAsync(node.getUri().getHost(), node.getUri().getPort())
                    .thenCompose(nodeConnection -> ping(nodeConnection))
                    .orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                    .whenComplete((pong, failure) -> {
                        if (failure == null) {
                            unreachable.remove(address);
                        } else if (unreachable.put(address, String.valueOf(failure.getMessage())) == null) {
                            LOG.warn("Redis Cluster master {} does not answer: {}", address, failure.toString());
                            if (unreachable.size() >= masters) {
                                downSince = Instant.now();
                            }
                        }
                    });
        }
    }

    /** Masters that hold slots, as of the last probe. */
    int masters() {
        return masters;
    }

    /** How many did not answer their last probe. */
    int unreachableCount() {
        return unreachable.size();
    }

    /** Those that did not answer their last probe, and why, by address. */
    Map<String, String> unreachable() {
        return new TreeMap<>(unreachable);
    }

    /** Since when no master (or no connection) answers. */
    Instant downSince() {
        return downSince;
    }

    private static String address(RedisClusterNode node) {
        return node.getUri().getHost() + ":" + node.getUri().getPort();
    }

    private static java.util.concurrent.CompletionStage<String> ping(StatefulRedisConnection<String, String> node) {
        return node.async().ping();
    }
}
