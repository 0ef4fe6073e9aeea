package com.example.threading.minimal;

import io.dropwizard.lifecycle.Managed;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAddArgs;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.XReadArgs.StreamOffset;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * One event stream for several instances, on a Redis Stream: {@link #publish} appends to it (XADD, capped near 10,000
 * entries); each instance's one reader thread reads everything appended after it started (XREAD BLOCK, at most 1 s
 * at a time, on a connection of its own) and hands each event, in stream order, to {@code deliver} (e.g.
 * {@code MinimalLongPoll::publish}). A failed read is retried after 1 s from the last id read. Managed: started
 * and stopped with the service; the stop also shuts the client down.
 *
 * <p>Thread-safety: {@link #publish} may be called from any thread (a lettuce connection is thread-safe);
 * {@code deliver} is called from the reader thread only, one event after the other.
 */
public final class MinimalRedisEvents implements Managed {
    private final RedisClient redis;
    private final String key;
    private final Consumer<String> deliver;
    private final Thread reader = new Thread(this::read, "minimal-redis-reader");
    private volatile boolean running = true;
    private volatile StatefulRedisConnection<String, String> publishing;

    public MinimalRedisEvents(RedisClient redis, String key, Consumer<String> deliver) {
        this.redis = redis;
        this.key = key;
        this.deliver = deliver;
    }

    @Override
    public void start() {
        publishing = redis.connect();
        reader.start();
    }

    /** Appends {@code json}; completes with its stream id, or exceptionally when Redis does not take it within 5 s. */
    public CompletableFuture<String> publish(String json) {
        return publishing.async().xadd(key, XAddArgs.Builder.maxlen(10_000).approximateTrimming(), Map.of("data", json))
                .toCompletableFuture().orTimeout(5, TimeUnit.SECONDS);
    }

    private void read() {
        StreamOffset<String> from = StreamOffset.latest(key);
        while (running) {
            try (StatefulRedisConnection<String, String> connection = redis.connect()) {
                while (running) {
                    for (StreamMessage<String, String> event : connection.sync().xread(XReadArgs.Builder.block(1000), from)) {
                        deliver.accept(event.getBody().get("data"));
                        from = StreamOffset.from(key, event.getId());
                    }
                }
            } catch (RedisException e) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1)); // Redis away: try again in a second
            }
        }
    }

    @Override
    public void stop() throws InterruptedException {
        running = false;
        reader.join(5_000);
        publishing.close();
        redis.shutdown();
    }
}
