package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.Event;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XReadArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's one reader of the topics it watches, on its own thread and its own connection: one
 * {@code XREAD BLOCK} over every watched topic's stream, from the last id it delivered on each, handing each entry to
 * the subscriber (the hub) in id order per topic. A topic is watched from where its stream is when the reader first
 * gets to it, its newest entry delivered (older events are the archive's); {@link #watch} cuts a blocked read short ({@code CLIENT UNBLOCK}, from
 * the publish connection) so a new topic is read at once. When the connection fails (or cannot be made) it closes it,
 * waits (100 ms, doubling up to {@code maxReconnectDelayMs}) and reconnects, then reads on from its last ids: nothing
 * published meanwhile is lost to the hub (unless a stream trimmed it first).
 *
 * <p>One XREAD lists every watched topic, so its cost grows with the topics this instance holds (see
 * docs/longpoll-redis.md, "How it works", "Reading, driven by interest"); interest-driven reading keeps that number to the topics with polls on this
 * instance.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The reader thread: {@link #run}, alone touches the connection's commands and calls the subscriber, so
 *       deliveries happen one after another, as {@code EventSource} promises; it writes the connection, its client id
 *       and the connection state through volatile fields.</li>
 *   <li>Any threads: {@link #watch} and {@link #forget} change the concurrent positions and never block; a watch reads
 *       the volatile client id and has a blocked XREAD cut short asynchronously.</li>
 *   <li>The lifecycle thread: {@link #stop} clears the volatile {@code running} and closes the current connection,
 *       which ends a blocked XREAD.</li>
 *   <li>Metrics and the health check, any thread: read the positions, {@link #connected} and {@link #problem} (volatile
 *       fields, each current, not one snapshot of one another).</li>
 * </ul>
 * {@code StreamReaderTest} checks it on a real Redis: watches and forgets from another thread while the reader runs,
 * and a killed connection made again with nothing lost.
 */
final class StreamReader implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamReader.class);

    static final long FIRST_RECONNECT_DELAY_MS = 100;
    /** How long one XREAD waits for news; also how often the reader retries the publish connection. */
    static final long BLOCK_MS = 1000;
    /** Most entries one XREAD returns per topic. */
    static final int READ_BATCH = 512;

    /** Sends {@code CLIENT UNBLOCK} for a reader connection; asynchronous, never throws. */
    interface Unblocker {
        /** Asks Redis to end the blocked command of client {@code clientId}. */
        void unblock(long clientId);
    }

    private final RedisClient client;
    private final TopicKeys keys;
    private final long maxReconnectDelayMs;
    private final StreamEntries entries;
    private final Consumer<Event> subscriber;
    private final RedisStreamMetrics metrics;
    private final Runnable onEachRound;
    private final Unblocker unblocker;

    /** Watched topics, the last id delivered on each and the newest known. */
    private final TopicPositions positions;
    private volatile boolean running = true;
    private volatile StatefulRedisConnection<String, String> connection;
    private volatile long clientId = -1;
    private volatile boolean connected;
    private volatile String lastFailure = "not connected yet";
    private volatile Instant downSince = Instant.now();

    /**
     * A reader of the streams {@code keys} names that delivers to the hooks' subscriber; their {@code onEachRound} runs
     * on the reader thread about once per {@link #BLOCK_MS} (the stream uses it to retry its publish connection).
     */
    StreamReader(RedisClient client, TopicKeys keys, long maxReconnectDelayMs, StreamEntries entries, ReaderHooks hooks,
                 Unblocker unblocker) {
        this.client = client;
        this.keys = keys;
        this.maxReconnectDelayMs = maxReconnectDelayMs;
        this.entries = entries;
        this.subscriber = hooks.subscriber();
        this.metrics = hooks.metrics();
        this.onEachRound = hooks.onEachRound();
        this.unblocker = unblocker;
        this.positions = new TopicPositions(hooks.metrics().gaps);
    }

    /** Starts reading {@code topic} from where its stream is when the reader gets to it. */
    void watch(String topic) {
        if (positions.watch(topic)) {
            long blocked = clientId;
            if (blocked >= 0) {
                unblocker.unblock(blocked); // the blocked XREAD does not list the new topic yet
            }
        }
    }

    /** Stops reading {@code topic}. */
    void forget(String topic) {
        positions.forget(topic);
    }

    /** Where the reader is on each watched topic. */
    TopicPositions positions() {
        return positions;
    }

    /** Whether the reader has placed {@code topic} in its stream (it reads it from there on). */
    boolean placed(String topic) {
        return positions.placed(topic);
    }

    /** Topics watched now. */
    int watched() {
        return positions.watched();
    }

    /** Events known to exist on the watched topics and not yet delivered. */
    long lag() {
        return positions.lag();
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
        while (running) {
            onEachRound.run();
            StatefulRedisConnection<String, String> current = null;
            try {
                current = client.connect();
                connection = current;
                RedisCommands<String, String> redis = current.sync();
                clientId = redis.clientId();
                if (!connected) {
                    LOG.info("reading {} topic(s) from Redis", positions.watched());
                }
                connected = true;
                delayMs = FIRST_RECONNECT_DELAY_MS;
                readUntilFailure(redis);
            } catch (RuntimeException failure) {
                clientId = -1;
                if (!running) {
                    break;
                }
                if (connected) {
                    downSince = Instant.now();
                    LOG.warn("stream reader lost Redis, reconnecting: {}", failure.toString());
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
        long lastRound = System.nanoTime();
        while (running) {
            List<XReadArgs.StreamOffset<String>> offsets = offsets(redis);
            if (offsets.isEmpty()) {
                sleep(BLOCK_MS / 10); // nothing watched (yet)
            } else {
                @SuppressWarnings("unchecked")
                XReadArgs.StreamOffset<String>[] streams = offsets.toArray(XReadArgs.StreamOffset[]::new);
                List<StreamMessage<String, String>> read = redis.xread(XReadArgs.Builder.block(BLOCK_MS).count(READ_BATCH), streams);
                deliver(read == null ? List.of() : read);
            }
            if (System.nanoTime() - lastRound > BLOCK_MS * 1_000_000) {
                onEachRound.run();
                lastRound = System.nanoTime();
            }
        }
    }

    /**
     * One offset per watched topic. A topic watched since the last round is first placed where its stream is now, and
     * its newest entry is delivered: a poll the hub parked before the reader got here (after an older id) is then
     * answered, from the archive if it needs more than that entry, instead of waiting for the topic's next event.
     */
    private List<XReadArgs.StreamOffset<String>> offsets(RedisCommands<String, String> redis) {
        List<XReadArgs.StreamOffset<String>> offsets = new ArrayList<>(positions.watched());
        for (String topic : positions.topics()) {
            Long position = positions.position(topic);
            if (position != null && position == TopicPositions.UNKNOWN && !place(redis, topic)) {
                continue; // forgotten meanwhile
            }
            Long lastId = positions.position(topic);
            if (lastId != null) {
                offsets.add(XReadArgs.StreamOffset.from(keys.stream(topic), StreamEntries.entryId(lastId)));
            }
        }
        return offsets;
    }

    /**
     * Places a newly watched topic just before its stream's newest entry (so the next read delivers it), or at its
     * counter when the stream is empty; false if it was forgotten meanwhile. Stream and counter are read in one script.
     */
    private boolean place(RedisCommands<String, String> redis, String topic) {
        List<Object> counterAndNewest = redis.eval(StreamScripts.PLACE, ScriptOutputType.MULTI, keys.stream(topic), keys.counter(topic));
        return positions.place(topic, ((Number) counterAndNewest.get(0)).longValue(),
                String.valueOf(counterAndNewest.get(1))) != null;
    }

    private void deliver(List<StreamMessage<String, String>> read) {
        for (StreamMessage<String, String> entry : read) {
            String topic = keys.topicOf(entry.getStream());
            Long lastId = topic == null ? null : positions.position(topic);
            if (lastId == null || lastId < 0) {
                continue; // forgotten meanwhile
            }
            Event event;
            try {
                event = entries.event(topic, entry);
            } catch (IllegalArgumentException foreign) {
                LOG.warn("skipping stream entry {} of {}: {}", entry.getId(), topic, foreign.getMessage());
                positions.skip(topic, lastId, StreamEntries.idOf(entry.getId()));
                continue;
            }
            positions.deliver(topic, lastId, event, subscriber);
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
