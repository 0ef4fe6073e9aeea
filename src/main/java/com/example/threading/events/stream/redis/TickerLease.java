package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.TickGate;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One ticker for the whole cluster: before each tick the instance renews or takes a lease in Redis
 * ({@code <key>:ticker}, {@link StreamScripts#TICKER_LEASE}: {@code SET NX PX} semantics, atomic), and ticks only while
 * it holds it. The lease lasts {@value #LEASE_PERIODS} tick periods, so when the leader stops (or dies) another
 * instance takes over within that time; a stopping leader releases it at once. While Redis is unreachable the gate
 * fails and nobody ticks (a tick could not be published anyway).
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The ticker's scheduler thread calls {@link #mayTick}; the stage completes on a lettuce I/O thread, which
 *       writes the volatile {@code leader}.</li>
 *   <li>The stopping thread calls {@link #release}, waiting up to 2 s for Redis, then clears {@code leader}.</li>
 *   <li>The gauge reads {@code leader} from any thread: what the last renewal or release that completed said.</li>
 * </ul>
 * {@code RedisTickerTest} checks it with two instances on one Redis: exactly one leader on the gauges, and a takeover
 * once the leader's stop released the lease.
 */
final class TickerLease implements TickGate {

    /** The lease outlives this many missed renewals' worth of periods, minus one. */
    static final int LEASE_PERIODS = 3;

    private final Supplier<RedisScriptingAsyncCommands<String, String>> redis;
    private final String[] key;
    private final String instanceId;
    private final String leaseMs;
    private volatile boolean leader;

    /** A lease on {@code key}, run through {@code redis} (null while not connected; one Redis or a cluster). */
    TickerLease(Supplier<RedisScriptingAsyncCommands<String, String>> redis, String key, String instanceId, long periodMs) {
        this.redis = redis;
        this.key = new String[] {key};
        this.instanceId = instanceId;
        this.leaseMs = Long.toString(LEASE_PERIODS * periodMs);
    }

    @Override
    public CompletionStage<Boolean> mayTick() {
        RedisScriptingAsyncCommands<String, String> current = redis.get();
        if (current == null) {
            leader = false;
            return CompletableFuture.failedFuture(new IllegalStateException("not connected to Redis"));
        }
        return current.<Long>eval(StreamScripts.TICKER_LEASE, ScriptOutputType.INTEGER, key, instanceId, leaseMs)
                .handle((held, failure) -> {
                    leader = failure == null && held == 1L;
                    if (failure != null) {
                        throw new IllegalStateException("ticker lease unavailable: " + failure, failure);
                    }
                    return leader;
                });
    }

    /** 1 while this instance held the lease at its last tick, else 0. */
    int leader() {
        return leader ? 1 : 0;
    }

    /** Gives the lease up if this instance holds it, so another instance ticks from its next period on. */
    void release() {
        RedisScriptingAsyncCommands<String, String> current = redis.get();
        if (current != null) {
            try {
                current.eval(StreamScripts.TICKER_RELEASE, ScriptOutputType.INTEGER, key, instanceId).get(2, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException | RuntimeException unreachable) {
                // the lease expires by itself
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        leader = false;
    }
}
