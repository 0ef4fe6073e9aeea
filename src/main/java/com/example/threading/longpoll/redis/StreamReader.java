package com.example.threading.longpoll.redis;

import com.example.threading.longpoll.Event;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's one reader of the stream, on its own thread and its own connection: {@code XREAD BLOCK} from the
 * last id it delivered, handing each entry to the subscriber (the hub) in id order. On its first connection it
 * first delivers the newest {@code prefill} entries (the ring's worth), so the hub starts where the stream is.
 * When the connection fails (or cannot be made) it closes it, waits (100 ms, doubling up to
 * {@code maxReconnectDelayMs}) and reconnects, then reads on from its last id: nothing published meanwhile is
 * lost to the hub (unless the stream trimmed it first).
 *
 * <p>Thread-safety: {@link #run} runs on the reader thread only, which alone touches the connection's commands
 * and calls the subscriber (so deliveries happen one after another, as {@code EventSource} promises).
 * {@link #stop} is called from the lifecycle thread: it clears the volatile {@code running} and closes the current
 * connection, which ends a blocked XREAD. {@link #lastId}, {@link #newestSeen}, {@link #connected} and
 * {@link #lastFailure} are volatile, written by the reader thread (and {@link #sawNewest} by publish callbacks,
 * through an atomic max) and read by metrics and the health check from any thread.
 */
final class StreamReader implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamReader.class);

    static final long FIRST_RECONNECT_DELAY_MS = 100;
    /** How long one XREAD waits for news; also how often the reader checks {@code running} and the counter. */
    static final long BLOCK_MS = 1000;
    /** Most entries one XREAD returns. */
    static final int READ_BATCH = 512;

    private final RedisClient client;
    private final String key;
    private final String counterKey;
    private final int prefill;
    private final long maxReconnectDelayMs;
    private final StreamEntries entries;
    private final Consumer<Event> subscriber;
    private final RedisStreamMetrics metrics;
    private final Runnable onEachRound;

    private volatile boolean running = true;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile long lastId;
    private final AtomicLong newestSeen = new AtomicLong();
    private volatile boolean connected;
    private volatile String lastFailure = "not connected yet";
    private volatile Instant downSince = Instant.now();
    /** Reader thread only: the "counter below the last id" warning was logged and has not cleared since. */
    private boolean counterBehindLogged;

    /**
     * A reader of {@code key} that delivers to {@code subscriber}; {@code onEachRound} runs on the reader thread
     * about once per {@link #BLOCK_MS} (the stream uses it to retry its publish connection).
     */
    StreamReader(RedisClient client, String key, String counterKey, int prefill, long maxReconnectDelayMs,
                 StreamEntries entries, Consumer<Event> subscriber, RedisStreamMetrics metrics, Runnable onEachRound) {
        this.client = client;
        this.key = key;
        this.counterKey = counterKey;
        this.prefill = prefill;
        this.maxReconnectDelayMs = maxReconnectDelayMs;
        this.entries = entries;
        this.subscriber = subscriber;
        this.metrics = metrics;
        this.onEachRound = onEachRound;
    }

    /** Id of the newest event delivered to the subscriber, 0 before the first. */
    long lastId() {
        return lastId;
    }

    /** The newest id known to exist in the stream (read from the counter about once a second, or seen in a publish). */
    long newestSeen() {
        return newestSeen.get();
    }

    /** Records an id known to exist (e.g. one this instance just published). */
    void sawNewest(long id) {
        newestSeen.accumulateAndGet(id, Math::max);
    }

    /** True while the reader holds a working connection. */
    boolean connected() {
        return connected;
    }

    /** Why the reader is not connected, and since when; null while connected. */
    String problem() {
        return connected ? null : lastFailure + " (since " + downSince + ")";
    }

    @Override
    public void run() {
        long delayMs = FIRST_RECONNECT_DELAY_MS;
        boolean firstConnection = true;
        while (running) {
            onEachRound.run();
            StatefulRedisConnection<String, String> current = null;
            try {
                current = client.connect();
                connection = current;
                RedisCommands<String, String> redis = current.sync();
                if (firstConnection && lastId == 0) {
                    deliverNewest(redis);
                }
                firstConnection = false;
                readNewest(redis);
                if (!connected) {
                    LOG.info("reading stream {} from id {}", key, lastId);
                }
                connected = true;
                delayMs = FIRST_RECONNECT_DELAY_MS;
                readUntilFailure(redis);
            } catch (RuntimeException failure) {
                if (!running) {
                    break;
                }
                if (connected) {
                    downSince = Instant.now();
                    LOG.warn("stream reader lost Redis, reconnecting from id {}: {}", lastId, failure.toString());
                } else {
                    LOG.debug("stream reader cannot reach Redis: {}", failure.toString());
                }
                connected = false;
                lastFailure = failure.toString();
                metrics.reconnects.mark();
                close(current);
                current = null;
                sleep(delayMs);
                delayMs = Math.min(delayMs * 2, maxReconnectDelayMs);
            } finally {
                close(current);
            }
        }
        connected = false;
        lastFailure = "stopped";
    }

    /** Ends the loop: a blocked XREAD is cut short by closing its connection. */
    void stop() {
        running = false;
        close(connection);
    }

    private void readUntilFailure(RedisCommands<String, String> redis) {
        long lastCounterRead = System.nanoTime();
        while (running) {
            List<StreamMessage<String, String>> read = redis.xread(XReadArgs.Builder.block(BLOCK_MS).count(READ_BATCH),
                    XReadArgs.StreamOffset.from(key, StreamEntries.entryId(lastId)));
            deliver(read == null ? List.of() : read);
            if (read == null || read.isEmpty() || System.nanoTime() - lastCounterRead > BLOCK_MS * 1_000_000) {
                readNewest(redis);
                lastCounterRead = System.nanoTime();
                onEachRound.run();
            }
        }
    }

    private void deliverNewest(RedisCommands<String, String> redis) {
        List<StreamMessage<String, String>> newestFirst = redis.xrevrange(key, Range.create("-", "+"), Limit.from(prefill));
        List<StreamMessage<String, String>> oldestFirst = new ArrayList<>(newestFirst);
        Collections.reverse(oldestFirst);
        deliver(oldestFirst);
    }

    private void readNewest(RedisCommands<String, String> redis) {
        String counter = redis.get(counterKey);
        if (counter != null) {
            long newest = Long.parseLong(counter);
            if (newest < lastId && !counterBehindLogged) {
                counterBehindLogged = true;
                LOG.warn("stream {}: the id counter ({}) is below the last id read ({}): Redis lost data; the next publish "
                        + "continues above {}", key, newest, lastId, lastId);
            }
            sawNewest(newest);
            if (newest >= lastId) {
                counterBehindLogged = false;
            }
        }
    }

    private void deliver(List<StreamMessage<String, String>> read) {
        for (StreamMessage<String, String> entry : read) {
            Event event;
            try {
                event = entries.event(entry);
            } catch (IllegalArgumentException foreign) {
                LOG.warn("skipping stream entry {}: {}", entry.getId(), foreign.getMessage());
                lastId = Math.max(lastId, StreamEntries.idOf(entry.getId()));
                continue;
            }
            if (event.id() <= lastId) {
                continue;
            }
            if (lastId > 0 && event.id() > lastId + 1) {
                metrics.gaps.mark();
                LOG.warn("stream {}: ids {} to {} are gone from the stream (trimmed while this reader was cut off, or lost "
                        + "by Redis); clients of this instance skip them", key, lastId + 1, event.id() - 1);
            }
            subscriber.accept(event);
            lastId = event.id();
            sawNewest(event.id());
        }
    }

    private void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    private static void close(StatefulRedisConnection<String, String> connection) {
        if (connection != null && connection.isOpen()) {
            connection.closeAsync();
        }
    }
}
