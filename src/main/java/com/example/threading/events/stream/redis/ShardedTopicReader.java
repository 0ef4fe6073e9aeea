package com.example.threading.events.stream.redis;

import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive.Read;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.api.async.RedisClusterPubSubAsyncCommands;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instance's one reader of the topics it watches on a Redis Cluster, in the shape of Centrifugo's per-channel
 * stream plus pub/sub. A multi-key {@code XREAD} cannot span slots there, so instead each publish announces its event
 * on the topic's shard channel ({@link StreamScripts#PUBLISH_AND_ANNOUNCE}), and the reader {@code SSUBSCRIBE}s to the
 * channels of the topics it watches (lettuce sends each to the master of the channel's slot; when a node's connection
 * comes back the stream calls {@link #subscribeAgain}). Announcements are delivered to the subscriber (the hub) in id order per topic; the
 * stream is read ({@link StreamScripts#HISTORY}, an {@code XRANGE}) whenever the announcements alone cannot be
 * trusted to be complete:
 * <ul>
 *   <li>after every (re)subscription is confirmed ({@code ssubscribed}): a new topic is first placed where its stream is
 *       ({@link StreamScripts#PLACE}, its newest entry delivered, as on one Redis); a topic subscribed again (a node's
 *       connection came back) is read on from its last id, so what was published while the connection was down
 *       arrives;</li>
 *   <li>when an announcement's id is not the last id + 1 (a gap): the missing ids are read from the stream;</li>
 *   <li>when such a read failed (the master unreachable): again every {@link #ROUND_MS}, until it works.</li>
 * </ul>
 * An announcement at or below the last id is a duplicate and dropped. Nothing the stream kept is lost to the hub; ids
 * the stream trimmed meanwhile are counted in {@code events.redis.reader.gaps}, as on one Redis.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>The reader thread: {@link #run}, alone reads the streams and calls the subscriber, one delivery after another,
 *       as {@code EventSource} promises. The topics whose read failed ({@code toReadAgain}, a plain set) are confined
 *       to it.</li>
 *   <li>Lettuce's I/O threads run the pub/sub callbacks ({@link #listener}): they only put signals on a blocking queue,
 *       in the order the node sent them (a node confirms a subscription before it sends its announcements), and the
 *       queue hands each signal to the reader thread with a happens-before edge; a dropped subscription goes into a
 *       concurrent set the next round subscribes again.</li>
 *   <li>Any threads: {@link #watch}, {@link #forget}, {@link #subscribeAll} and {@link #subscribeAgain} change the
 *       concurrent positions and that set and send (un)subscriptions asynchronously, never blocking.</li>
 *   <li>The lifecycle thread: {@link #stop} clears the volatile {@code running}; the reader sees it after its current
 *       wait, which the stream's interrupt cuts short.</li>
 *   <li>Gauges, any thread: read the positions.</li>
 * </ul>
 * {@code RedisClusterTopicsTest} checks it on a real cluster with followers on both instances,
 * {@code RedisClusterFaultTest} with the subscriptions to a master cut while events are published: each topic's events
 * arrive once, in order.
 */
final class ShardedTopicReader implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ShardedTopicReader.class);

    /** How often failed subscriptions and stream reads are tried again, and the round hook runs. */
    static final long ROUND_MS = 1000;
    /** Most entries one stream read returns. */
    static final int READ_BATCH = 512;

    /** A topic's announced event, or (event null) a request to read the topic's stream on from its last id. */
    private record Signal(String topic, Event announced) {
    }

    private final TopicKeys keys;
    private final TopicCalls calls;
    private final StreamEntries entries;
    private final Supplier<RedisAdvancedClusterAsyncCommands<String, String>> commands;
    private final Supplier<RedisClusterPubSubAsyncCommands<String, String>> pubSub;
    private final Consumer<Event> subscriber;
    private final Runnable onEachRound;
    private final long commandTimeoutMs;

    private final TopicPositions positions;
    private final Set<String> toSubscribe = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
    /** Topics whose stream read failed; reader thread only. */
    private final Set<String> toReadAgain = new HashSet<>();
    private volatile boolean running = true;

    /**
     * A reader that runs commands through {@code commands} and subscribes through {@code pubSub} (each null while not
     * connected), delivering to the hooks' subscriber; their {@code onEachRound} runs on the reader thread every
     * {@link #ROUND_MS} (the stream connects there, and checks the masters).
     */
    ShardedTopicReader(TopicCalls calls, Supplier<RedisAdvancedClusterAsyncCommands<String, String>> commands,
                       Supplier<RedisClusterPubSubAsyncCommands<String, String>> pubSub, ReaderHooks hooks,
                       long commandTimeoutMs) {
        this.keys = calls.keys();
        this.calls = calls;
        this.entries = calls.entries();
        this.commands = commands;
        this.pubSub = pubSub;
        this.subscriber = hooks.subscriber();
        this.onEachRound = hooks.onEachRound();
        this.commandTimeoutMs = commandTimeoutMs;
        this.positions = new TopicPositions(hooks.metrics().gaps);
    }

    /** The pub/sub callbacks to add to the cluster pub/sub connection. */
    RedisClusterPubSubAdapter<String, String> listener() {
        return new RedisClusterPubSubAdapter<>() {
            @Override
            public void smessage(RedisClusterNode node, String channel, String message) {
                String topic = keys.topicOf(channel);
                if (topic == null || !positions.watches(topic)) {
                    return;
                }
                try {
                    signals.add(new Signal(topic, entries.announced(topic, message)));
                } catch (IllegalArgumentException foreign) {
                    LOG.warn("skipping an announcement on {}: {}", channel, foreign.getMessage());
                }
            }

            @Override
            public void ssubscribed(RedisClusterNode node, String channel, long count) {
                String topic = keys.topicOf(channel);
                if (topic != null) {
                    signals.add(new Signal(topic, null)); // read on from the last id: what the subscription missed
                }
            }

            @Override
            public void sunsubscribed(RedisClusterNode node, String channel, long count) {
                String topic = keys.topicOf(channel);
                if (topic != null && positions.watches(topic)) {
                    toSubscribe.add(topic); // the server dropped it (its slot moved) or a forget crossed a watch
                }
            }
        };
    }

    /** Starts reading {@code topic}: subscribes to its channel, then places it where its stream is. */
    void watch(String topic) {
        if (positions.watch(topic)) {
            subscribe(topic);
        }
    }

    /** Stops reading {@code topic} and unsubscribes from its channel. */
    void forget(String topic) {
        positions.forget(topic);
        toSubscribe.remove(topic);
        RedisClusterPubSubAsyncCommands<String, String> current = pubSub.get();
        if (current != null) {
            current.sunsubscribe(keys.stream(topic));
        }
    }

    /** Subscribes to every watched topic again (a new pub/sub connection). */
    void subscribeAll() {
        toSubscribe.addAll(positions.topics());
    }

    /**
     * Subscribes again, one channel per command, to the watched topics {@code onNode} accepts (those on a node whose
     * connection was just made again): lettuce's own re-subscription sends all of a node's shard channels in one
     * {@code SSUBSCRIBE}, which the node refuses ({@code CROSSSLOT}) as soon as they lie in different slots.
     */
    void subscribeAgain(Predicate<String> onNode) {
        for (String topic : positions.topics()) {
            if (onNode.test(topic)) {
                subscribe(topic);
            }
        }
    }

    /** Where the reader is on each watched topic. */
    TopicPositions positions() {
        return positions;
    }

    @Override
    public void run() {
        long nextRound = System.nanoTime();
        while (running) {
            if (System.nanoTime() - nextRound >= 0) {
                round();
                nextRound = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ROUND_MS);
            }
            try {
                Signal signal = signals.poll(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextRound - System.nanoTime())),
                        TimeUnit.MILLISECONDS);
                if (signal != null) {
                    handle(signal);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running = false;
            } catch (RuntimeException unexpected) {
                LOG.error("sharded topic reader: unexpected failure, going on", unexpected);
            }
        }
    }

    /** Ends the loop. */
    void stop() {
        running = false;
    }

    private void round() {
        onEachRound.run();
        for (String topic : List.copyOf(toSubscribe)) {
            toSubscribe.remove(topic);
            if (positions.watches(topic)) {
                subscribe(topic);
            }
        }
        for (String topic : List.copyOf(toReadAgain)) {
            if (!readOn(topic)) {
                break; // one wait per round: a master that hangs must not hold up the other masters' topics for long
            }
        }
    }

    private void subscribe(String topic) {
        RedisClusterPubSubAsyncCommands<String, String> current = pubSub.get();
        if (current == null) {
            toSubscribe.add(topic);
            return;
        }
        current.ssubscribe(keys.stream(topic)).whenComplete((ok, failure) -> {
            if (failure != null && positions.watches(topic)) {
                LOG.debug("subscribing to {} failed, trying again: {}", topic, failure.toString());
                toSubscribe.add(topic);
            }
        });
    }

    private void handle(Signal signal) {
        String topic = signal.topic();
        Long position = positions.position(topic);
        if (position == null) {
            return; // forgotten meanwhile
        }
        Event announced = signal.announced();
        if (announced == null || position == TopicPositions.UNKNOWN) {
            readOn(topic);
        } else if (announced.id() == position + 1) {
            positions.deliver(topic, position, announced, subscriber);
        } else if (announced.id() > position + 1) {
            readOn(topic); // a gap: the ids between are in the stream
        }
        // else: at or below the last id, a duplicate
    }

    /**
     * Places {@code topic} if new, then delivers what its stream holds after its last id; false when that failed (it is
     * tried again next round).
     */
    private boolean readOn(String topic) {
        RedisAdvancedClusterAsyncCommands<String, String> redis = commands.get();
        if (redis == null) {
            toReadAgain.add(topic);
            return false;
        }
        try {
            Long position = positions.position(topic);
            if (position != null && position == TopicPositions.UNKNOWN) {
                List<Object> counterAndNewest = await(redis.<List<Object>>eval(StreamScripts.PLACE, ScriptOutputType.MULTI,
                        keys.stream(topic), keys.counter(topic)));
                position = positions.place(topic, ((Number) counterAndNewest.get(0)).longValue(),
                        String.valueOf(counterAndNewest.get(1)));
            }
            while (position != null) {
                Read read = await(calls.history(redis, topic, position, READ_BATCH));
                positions.sawNewest(topic, read.newestId());
                for (Event event : read.events()) {
                    position = positions.deliver(topic, position, event, subscriber);
                    if (position == null) {
                        break;
                    }
                }
                if (read.events().size() < READ_BATCH) {
                    break;
                }
            }
            toReadAgain.remove(topic);
            return true;
        } catch (ExecutionException | TimeoutException | RuntimeException failure) {
            LOG.debug("reading the stream of {} failed, trying again: {}", topic, failure.toString());
            toReadAgain.add(topic);
            return false;
        }
    }

    private <T> T await(CompletionStage<T> stage) throws ExecutionException, TimeoutException {
        try {
            return stage.toCompletableFuture().get(commandTimeoutMs * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
            throw new IllegalStateException("interrupted", e);
        }
    }
}
